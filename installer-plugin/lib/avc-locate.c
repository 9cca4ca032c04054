/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * avc-locate.c — finding the file of a denial the kernel logged only by name, device and inode
 * (name=, dev=, ino=), on the running system: the mount point of the device, then a bounded
 * breadth-first search of that filesystem for the name with that inode.
 */
#include <dirent.h>
#include <sys/stat.h>

#include "avc.h"

#define AVC_SEARCH_MAX 200000u /* entries a dev/ino search may visit */

/* The mount point (in the host's namespace) of the filesystem the kernel calls @dev. */
char *si_avc_mount_of_dev(const char *dev)
{
        _cleanup_free_ char *text = NULL, *sysdev = NULL, *p = NULL;
        unsigned maj = 0, min = 0;
        bool have_num = false;
        size_t len;

        if (strchr(dev, '/') || streq(dev, ".") || streq(dev, ".."))
                return NULL;
        if (asprintf(&p, "/sys/class/block/%s/dev", dev) >= 0 &&
            read_file_bounded(p, 64, &sysdev, &len) == 0 &&
            sscanf(sysdev, "%u:%u", &maj, &min) == 2)
                have_num = true;
        if (read_file_bounded("/proc/self/mountinfo", 16u << 20, &text, &len) < 0)
                return NULL;
        const char *pos = text, *l;
        size_t n;
        while (next_line(&pos, text + len, &l, &n)) {
                _cleanup_free_ char *line = strndup(l, n);
                char mp[4096], fstype[256], src[4096];
                unsigned a, b;
                if (!line)
                        return NULL;
                if (sscanf(line, "%*u %*u %u:%u %*s %4095s", &a, &b, mp) != 3)
                        continue;
                const char *sep = strstr(line, " - ");
                if (!sep || sscanf(sep + 3, "%255s %4095s", fstype, src) != 2)
                        continue;
                const char *base = strrchr(src, '/');
                base = base ? base + 1 : src;
                if ((have_num && a == maj && b == min) || (!have_num && streq(base, dev)) ||
                    (!have_num && streq(fstype, dev)))
                        return strdup(mp); /* octal escapes (\040) are rare on roots: kept */
        }
        return NULL;
}

/* Breadth-first search below @top (same filesystem) for @name with inode @ino. */
char *si_avc_search_ino(const char *top, const char *name, unsigned long long ino)
{
        char **queue = NULL, *found = NULL;
        size_t head = 0, tail = 0, cap = 0, visited = 0;
        struct stat st;

        if (lstat(top, &st) < 0 || !S_ISDIR(st.st_mode))
                return NULL;
        dev_t dev = st.st_dev;
        if (st.st_ino == ino)
                return strdup(top);
        queue = malloc(sizeof(*queue) * (cap = 256));
        if (!queue || !(queue[tail++] = strdup(top)))
                goto out;
        while (head < tail && !found && visited < AVC_SEARCH_MAX) {
                _cleanup_free_ char *dir = queue[head++];
                DIR *d = opendir(dir);
                struct dirent *de;
                if (!d)
                        continue;
                while ((de = readdir(d)) && visited++ < AVC_SEARCH_MAX) {
                        if (streq(de->d_name, ".") || streq(de->d_name, ".."))
                                continue;
                        if (de->d_ino == ino && streq(de->d_name, name)) {
                                found = path_join(dir, de->d_name);
                                break;
                        }
                        if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
                                continue;
                        char *sub = path_join(dir, de->d_name);
                        if (!sub || lstat(sub, &st) < 0 || !S_ISDIR(st.st_mode) ||
                            st.st_dev != dev) {
                                free(sub);
                                continue;
                        }
                        if (tail == cap) {
                                char **nq;
                                memmove(queue, queue + head, (tail - head) * sizeof(*queue));
                                tail -= head;
                                head = 0;
                                if (tail == cap) {
                                        nq = realloc(queue, sizeof(*queue) * cap * 2);
                                        if (!nq) {
                                                free(sub);
                                                break;
                                        }
                                        queue = nq;
                                        cap *= 2;
                                }
                        }
                        queue[tail++] = sub;
                }
                closedir(d);
        }
out:
        if (queue)
                for (size_t i = head; i < tail; i++)
                        free(queue[i]);
        free(queue);
        return found;
}
