/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A deliberate data race: `make check-tsan` runs this first and requires ThreadSanitizer to
 * report it, so a sanitizer that is off or broken cannot make the relabel tests pass. */
#include <pthread.h>
#include <stdio.h>

static int shared;

static void *writer(void *arg)
{
        (void) arg;
        shared++;
        return NULL;
}

int main(void)
{
        pthread_t t;

        if (pthread_create(&t, NULL, writer, NULL) != 0)
                return 2;
        shared++;
        pthread_join(t, NULL);
        printf("%d\n", shared);
        return 0;
}
