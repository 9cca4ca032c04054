/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* replay-main.c — runs a libFuzzer target as a plain program over files and directories of
 * inputs, so the committed corpora and every crash reproducer run in `make check` with gcc and
 * without libFuzzer. Exit 0 when every input went through; a crash is the failure. */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
        FILE *f = fopen(path, "rbe");
        uint8_t *buf = NULL;
        size_t len = 0, cap = 0, n;

        if (!f) {
                fprintf(stderr, "%s: %s\n", path, strerror(errno));
                return -1;
        }
        do {
                if (len == cap) {
                        uint8_t *p;
                        cap = cap ? cap * 2 : 4096;
                        p = realloc(buf, cap);
                        if (!p) {
                                free(buf);
                                fclose(f);
                                return -1;
                        }
                        buf = p;
                }
                n = fread(buf + len, 1, cap - len, f);
                len += n;
        } while (n > 0);
        fclose(f);
        LLVMFuzzerTestOneInput(buf, len);
        free(buf);
        return 0;
}

static int run_path(const char *path, unsigned *count)
{
        struct stat st;
        struct dirent **names;
        int n, r = 0;

        if (stat(path, &st) < 0) {
                fprintf(stderr, "%s: %s\n", path, strerror(errno));
                return -1;
        }
        if (!S_ISDIR(st.st_mode)) {
                (*count)++;
                return run_file(path);
        }
        n = scandir(path, &names, NULL, alphasort);
        if (n < 0)
                return -1;
        for (int i = 0; i < n; i++) {
                char *p = NULL;
                if (names[i]->d_name[0] != '.' &&
                    asprintf(&p, "%s/%s", path, names[i]->d_name) >= 0) {
                        if (run_path(p, count) < 0)
                                r = -1;
                }
                free(p);
                free(names[i]);
        }
        free(names);
        return r;
}

int main(int argc, char **argv)
{
        unsigned count = 0;
        int r = 0;

        for (int i = 1; i < argc; i++)
                if (run_path(argv[i], &count) < 0)
                        r = 1;
        printf("%s: %u inputs replayed\n", argv[0], count);
        return r;
}
