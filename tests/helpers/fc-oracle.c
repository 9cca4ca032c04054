/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fc-oracle — compare every entry of a labeled tree with what libselinux says it should carry.
 *
 *   fc-oracle FILE_CONTEXTS ROOT [SKIP...]
 *
 * Walks ROOT (never following symlinks, fd-relative so any depth works), and for each entry
 * asks selabel_lookup_raw() for the path as seen from ROOT ("/" for ROOT itself) and its file
 * type, and compares with its security.selinux. Entries with no context are not compared
 * (relabel leaves them alone). SKIP are paths inside ROOT ("/tmp") not to descend into.
 * Hard-linked files pass when their label is the expected label of any of their names.
 * Prints a summary and the first mismatches; exits 0 when there are none, 1 otherwise.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <selinux/label.h>
#include <selinux/selinux.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <stdbool.h>
#include <unistd.h>

struct link_entry {
        dev_t dev;
        ino_t ino;
        char *expected, *actual, *path;
};

static struct selabel_handle *hnd;
static unsigned long checked, mismatches, nocontext;
static struct link_entry *links;
static size_t nlinks, caplinks;

static void mismatch(const char *path, const char *actual, const char *expected)
{
        if (mismatches++ < 30)
                printf("MISMATCH %s: has %s, expected %s\n", path, actual ? actual : "(none)",
                       expected);
}

static void check(int dfd, const char *name, const char *path, const struct stat *st)
{
        char proc[64 + 256], cur[4096];
        char *want = NULL;
        ssize_t n;

        if (selabel_lookup_raw(hnd, &want, path, (int) st->st_mode) < 0) {
                if (errno != ENOENT) {
                        perror("selabel_lookup_raw");
                        exit(2);
                }
                nocontext++;
                return;
        }
        if (name) {
                snprintf(proc, sizeof(proc), "/proc/self/fd/%d/%s", dfd, name);
                n = lgetxattr(proc, "security.selinux", cur, sizeof(cur) - 1);
        } else {
                n = fgetxattr(dfd, "security.selinux", cur, sizeof(cur) - 1);
        }
        if (n < 0)
                n = 0;
        while (n > 0 && cur[n - 1] == '\0')
                n--;
        cur[n] = '\0';
        checked++;
        if (!S_ISDIR(st->st_mode) && st->st_nlink > 1) {
                if (nlinks == caplinks) {
                        caplinks = caplinks ? caplinks * 2 : 256;
                        links = realloc(links, caplinks * sizeof(*links));
                        if (!links)
                                exit(2);
                }
                links[nlinks++] = (struct link_entry){st->st_dev, st->st_ino, strdup(want),
                                                      strdup(cur), strdup(path)};
        } else if (strcmp(cur, want) != 0) {
                mismatch(path, n ? cur : NULL, want);
        }
        freecon(want);
}

static int cmp_link(const void *a, const void *b)
{
        const struct link_entry *x = a, *y = b;
        if (x->dev != y->dev)
                return x->dev < y->dev ? -1 : 1;
        if (x->ino != y->ino)
                return x->ino < y->ino ? -1 : 1;
        return 0;
}

struct frame {
        DIR *d;
        size_t len;
};

int main(int argc, char **argv)
{
        struct selinux_opt opts[1] = {{SELABEL_OPT_PATH, NULL}};
        struct frame *stack = NULL;
        size_t depth = 0, cap = 0, plen = 0, pcap = 4096;
        char *path = malloc(pcap);
        struct stat st;
        int fd;

        if (argc < 3) {
                fprintf(stderr, "usage: fc-oracle FILE_CONTEXTS ROOT [SKIP...]\n");
                return 2;
        }
        opts[0].value = argv[1];
        hnd = selabel_open(SELABEL_CTX_FILE, opts, 1);
        if (!hnd) {
                perror(argv[1]);
                return 2;
        }
        fd = open(argv[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0 || fstat(fd, &st) < 0) {
                perror(argv[2]);
                return 2;
        }
        check(fd, NULL, "/", &st);
        path[0] = '\0';
        for (;;) {
                struct dirent *de;
                if (fd >= 0) {
                        if (depth == cap) {
                                cap = cap ? cap * 2 : 64;
                                stack = realloc(stack, cap * sizeof(*stack));
                        }
                        stack[depth].d = fdopendir(fd);
                        stack[depth].len = plen;
                        if (!stack[depth].d) {
                                perror("fdopendir");
                                return 2;
                        }
                        depth++;
                        fd = -1;
                }
                if (!depth)
                        break;
                de = readdir(stack[depth - 1].d);
                if (!de) {
                        closedir(stack[--depth].d);
                        plen = depth ? stack[depth - 1].len : 0;
                        continue;
                }
                if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                        continue;
                plen = stack[depth - 1].len;
                size_t nl = strlen(de->d_name);
                while (plen + nl + 2 > pcap) {
                        pcap *= 2;
                        path = realloc(path, pcap);
                }
                path[plen] = '/';
                memcpy(path + plen + 1, de->d_name, nl + 1);
                plen += nl + 1;
                int dfd = dirfd(stack[depth - 1].d);
                if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
                        perror(path);
                        return 2;
                }
                bool skip = false;
                for (int i = 3; i < argc; i++)
                        if (!strcmp(argv[i], path))
                                skip = true;
                if (skip)
                        continue;
                check(dfd, de->d_name, path, &st);
                if (S_ISDIR(st.st_mode)) {
                        fd = openat(dfd, de->d_name,
                                    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                        if (fd < 0) {
                                perror(path);
                                return 2;
                        }
                }
        }
        qsort(links, nlinks, sizeof(*links), cmp_link);
        for (size_t i = 0; i < nlinks;) {
                size_t j = i;
                while (j < nlinks && !cmp_link(&links[i], &links[j]))
                        j++;
                /* all names of the inode share one label; it must be the expected label of one */
                bool ok = false;
                for (size_t k = i; k < j; k++)
                        if (!strcmp(links[i].actual, links[k].expected))
                                ok = true;
                if (!ok)
                        mismatch(links[i].path, links[i].actual, links[i].expected);
                i = j;
        }
        printf("fc-oracle: %lu entries compared, %lu without a context, %lu hard-linked, "
               "%lu mismatches\n",
               checked, nocontext, (unsigned long) nlinks, mismatches);
        selabel_close(hnd);
        free(stack);
        free(path);
        return mismatches ? 1 : 0;
}
