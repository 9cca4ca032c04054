/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * floor — the syscall floor of a relabel, for `make bench`: walk a tree (never following
 * symlinks, staying on its filesystem), read each entry's security.selinux and write one
 * constant label. No lookup at all: what any relabel must at least spend on a single core.
 *
 *   floor ROOT LABEL     read each label, write LABEL (the floor of a tree to be labeled)
 *   floor ROOT --read    read each label only (the floor of a tree already labeled)
 *   floor ROOT --remove  remove each label (how the bench makes an unlabeled tree)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

int main(int argc, char **argv)
{
        DIR **stack = NULL;
        size_t depth = 0, cap = 0;
        unsigned long n = 0;
        char buf[4096], proc[64 + 256];
        struct stat st;
        dev_t dev;
        int fd, cwd = -1;

        if (argc != 3) {
                fprintf(stderr, "usage: floor ROOT LABEL|--read|--remove\n");
                return 2;
        }
        int mode = !strcmp(argv[2], "--read") ? 1 : !strcmp(argv[2], "--remove") ? 2 : 0;
        fd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0 || fstat(fd, &st) < 0) {
                perror(argv[1]);
                return 2;
        }
        dev = st.st_dev;
        if (mode == 2)
                (void) fremovexattr(fd, "security.selinux");
        else
                (void) fgetxattr(fd, "security.selinux", buf, sizeof(buf));
        if (mode == 0)
                (void) fsetxattr(fd, "security.selinux", argv[2], strlen(argv[2]) + 1, 0);
        n++;
        for (;;) {
                struct dirent *de;
                if (fd >= 0) {
                        if (depth == cap) {
                                cap = cap ? cap * 2 : 64;
                                stack = realloc(stack, cap * sizeof(*stack));
                                if (!stack)
                                        return 2;
                        }
                        stack[depth++] = fdopendir(fd);
                        fd = -1;
                }
                if (!depth)
                        break;
                de = readdir(stack[depth - 1]);
                if (!de) {
                        if (dirfd(stack[depth - 1]) == cwd)
                                cwd = -1;
                        closedir(stack[--depth]);
                        continue;
                }
                if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                        continue;
                int dfd = dirfd(stack[depth - 1]);
                if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || st.st_dev != dev)
                        continue;
                /* bare names relative to the directory we are in: the cheapest lookup */
                if (dfd != cwd) {
                        if (fchdir(dfd) < 0)
                                return 2;
                        cwd = dfd;
                }
                snprintf(proc, sizeof(proc), "%s", de->d_name);
                if (mode == 2) {
                        if (lremovexattr(proc, "security.selinux") < 0 && errno != ENODATA) {
                                perror(proc);
                                return 1;
                        }
                } else {
                        (void) lgetxattr(proc, "security.selinux", buf, sizeof(buf));
                }
                if (mode == 0 &&
                    lsetxattr(proc, "security.selinux", argv[2], strlen(argv[2]) + 1, 0) < 0) {
                        perror(proc);
                        return 1;
                }
                n++;
                if (S_ISDIR(st.st_mode))
                        fd = openat(dfd, de->d_name,
                                    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        }
        printf("floor: %lu entries\n", n);
        return 0;
}
