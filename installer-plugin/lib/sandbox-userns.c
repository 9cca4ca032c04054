/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sandbox-userns.c — who the target's programs are: root of a user namespace whose ids map to
 * a range of host ids nobody else uses, never the host's root. Every kernel interface that
 * trusts uid 0 or a capability of the initial namespace (sysctls, the loop and block ioctls
 * that check a capability, keyrings, files of /proc) then refuses them without a list of
 * what to deny. The target's own files reach them through idmapped mounts of this namespace
 * (sandbox.c), on which the host's root owns what they own and write.
 *
 * The range is picked as systemd-nspawn's --private-users=pick picks one: 65536 ids at a
 * multiple of 65536 in its container range, one no account names, no process runs as, and
 * no other seinstall holds (a lock in /run/seinstall).
 */
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "seinstall-private.h"
#include "sandbox.h"

DEFINE_CLEANUP_FUNC(DIR *, closedir)

#define RANGE_FIRST 0x00080000U
#define RANGE_LAST  0x6FFF0000U
#define LOCK_DIR    "/run/seinstall"

/* Whether an account or a group of the host names @id. */
static bool id_named(uid_t id)
{
        char buf[4096];
        struct passwd pw, *pwp = NULL;
        struct group gr, *grp = NULL;

        (void) getpwuid_r(id, &pw, buf, sizeof(buf), &pwp);
        if (pwp)
                return true;
        (void) getgrgid_r((gid_t) id, &gr, buf, sizeof(buf), &grp);
        return grp != NULL;
}

/* Whether a process of the host runs with a uid or gid in [@base, @base + SI_USERNS_IDS). */
static bool ids_running(uid_t base)
{
        _cleanup_(closedirp) DIR *proc = opendir("/proc");
        struct dirent *de;

        while (proc && (de = readdir(proc))) {
                char path[300], line[256];
                _cleanup_fclose_ FILE *f = NULL;

                if (de->d_name[0] < '0' || de->d_name[0] > '9')
                        continue;
                snprintf(path, sizeof(path), "/proc/%s/status", de->d_name);
                f = fopen(path, "re");
                while (f && fgets(line, sizeof(line), f)) {
                        unsigned long v[4];
                        if ((strncmp(line, "Uid:", 4) != 0 && strncmp(line, "Gid:", 4) != 0) ||
                            sscanf(line + 4, "%lu %lu %lu %lu", &v[0], &v[1], &v[2], &v[3]) != 4)
                                continue;
                        for (int i = 0; i < 4; i++)
                                if (v[i] >= base && v[i] - base < SI_USERNS_IDS)
                                        return true;
                }
        }
        return false;
}

int si_uidrange_reserve(struct si_uidrange *ret)
{
        const unsigned slots = (RANGE_LAST - RANGE_FIRST) / SI_USERNS_IDS;
        /* The same first candidate every time: the lock files stay as few as the runs at once
         * (they are never removed, so that two runs can never both hold one range). */
        unsigned start = 0x5e1 % slots;
        int r = -EBUSY;

        if (mkdir(LOCK_DIR, 0700) < 0 && errno != EEXIST)
                return -errno;
        for (unsigned i = 0; i < 64; i++) {
                uid_t base = RANGE_FIRST + ((start + i * 7919U) % slots) * SI_USERNS_IDS;
                char path[64];
                int fd;

                snprintf(path, sizeof(path), LOCK_DIR "/uids-%u.lock", (unsigned) base);
                fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
                if (fd < 0)
                        return -errno;
                if (flock(fd, LOCK_EX | LOCK_NB) < 0 || id_named(base) ||
                    id_named(base + SI_USERNS_IDS - 1) || ids_running(base)) {
                        close(fd);
                        continue;
                }
                *ret = (struct si_uidrange){.base = base, .lock_fd = fd};
                return 0;
        }
        return r;
}

void si_uidrange_release(struct si_uidrange *u)
{
        if (u->lock_fd >= 0)
                close(u->lock_fd);
        u->lock_fd = -1;
}

static int write_text(const char *path, const char *text)
{
        _cleanup_close_ int fd = open(path, O_WRONLY | O_CLOEXEC);
        size_t n = strlen(text);

        if (fd < 0)
                return -errno;
        if (write(fd, text, n) != (ssize_t) n)
                return errno ? -errno : -EIO;
        return 0;
}

int si_userns_make(uid_t base, int *ret_fd)
{
        char path[64], map[64], c = 0;
        int sync[2], done[2], r = 0, status;
        pid_t pid;

        if (pipe2(sync, O_CLOEXEC) < 0)
                return -errno;
        if (pipe2(done, O_CLOEXEC) < 0) {
                r = -errno;
                close(sync[0]);
                close(sync[1]);
                return r;
        }
        pid = fork();
        if (pid == 0) {
                /* Only system calls here: the parent may have threads. */
                close(done[1]);
                close(sync[0]);
                c = unshare(CLONE_NEWUSER) < 0 ? 'E' : 'U';
                if (write(sync[1], &c, 1) != 1)
                        _exit(1);
                (void) !read(done[0], &c, 1);
                _exit(0);
        }
        close(sync[1]);
        close(done[0]);
        if (pid < 0)
                r = -errno;
        else if (read(sync[0], &c, 1) != 1 || c != 'U')
                r = -EPERM;
        if (r >= 0) {
                snprintf(map, sizeof(map), "0 %u %u\n", (unsigned) base, SI_USERNS_IDS);
                snprintf(path, sizeof(path), "/proc/%d/uid_map", (int) pid);
                r = write_text(path, map);
                snprintf(path, sizeof(path), "/proc/%d/gid_map", (int) pid);
                if (r >= 0)
                        r = write_text(path, map);
                snprintf(path, sizeof(path), "/proc/%d/ns/user", (int) pid);
                if (r >= 0) {
                        *ret_fd = open(path, O_RDONLY | O_CLOEXEC);
                        r = *ret_fd < 0 ? -errno : 0;
                }
        }
        close(sync[0]);
        close(done[1]); /* the holder's read returns: it exits */
        if (pid > 0)
                while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                        ;
        return r;
}
