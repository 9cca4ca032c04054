/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fuzz-text.h — turn a fuzzer's bytes into the text a parser of configuration files receives. */
#ifndef SEINSTALL_FUZZ_TEXT_H
#define SEINSTALL_FUZZ_TEXT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A NUL-terminated copy of @data, or NULL when it is longer than @max or holds a NUL byte:
 * the file readers refuse such files before any parser sees them (bootloader.c, config.c). */
static inline char *fuzz_text(const uint8_t *data, size_t size, size_t max)
{
        char *text;

        if (size > max || memchr(data, '\0', size))
                return NULL;
        text = malloc(size + 1);
        if (!text)
                return NULL;
        memcpy(text, data, size);
        text[size] = '\0';
        return text;
}

#endif
