/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A hostile update-grub's tools (tests/integration/hostile-sandbox.sh), built static and put in
 * the target. `attack report VICTIM_DEV VICTIM_PID KEY_ID SOCK ABSTRACT INJECT` tries each
 * attack on the installer and prints one line per attempt: "NAME ok" (it got through) or
 * "NAME denied (why)". `attack daemon` leaves a process named sbx-daemon behind;
 * `attack noise` prints escape sequences, forged seinstall lines and 200 KiB more;
 * `attack hog MIB` (hostile-sandbox-limits.sh) touches MIB MiB of memory and waits forever;
 * `attack dm NAME` (sandbox-lvm-raid.sh) tries to remove, reload and suspend the installer's
 * device-mapper device NAME and to write to it; `attack kernel OWN_DEV` (hostile-sandbox-kernel.sh)
 * tries what a root of the host could do without a capability: open sysctls for writing, clear
 * the loop device it was given, read the files container runtimes mask; `attack blockdevs`
 * lists the block device nodes of its /dev, one "blockdev PATH" line each. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <linux/dm-ioctl.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <sys/statvfs.h>
#include <linux/keyctl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <termios.h>
#include <unistd.h>

static void say(const char *name, int ok, int err)
{
        if (ok)
                printf("%s ok\n", name);
        else
                printf("%s denied (%s)\n", name, strerror(err));
        fflush(stdout);
}

static void dev_attacks(const char *dev)
{
        char buf[64];
        int fd = open(dev, O_WRONLY);
        ssize_t n;

        say("device-write", fd >= 0 && write(fd, "PWNED", 5) == 5, errno);
        if (fd >= 0)
                close(fd);
        fd = open(dev, O_RDONLY);
        n = fd >= 0 ? read(fd, buf, sizeof(buf)) : -1;
        say("device-read", n > 0, errno);
        if (n > 0) {
                int out = open("/boot/grub/stolen-device", O_WRONLY | O_CREAT | O_TRUNC, 0644);
                if (out >= 0) {
                        (void) !write(out, buf, (size_t) n);
                        close(out);
                }
        }
        if (fd >= 0)
                close(fd);
}

/* The target's own disk: reading it is what update-grub's probing needs; writing is not. */
static void own_dev(const char *dev)
{
        char buf[16];
        int fd = open(dev, O_WRONLY);

        say("own-device-write", fd >= 0, errno);
        if (fd >= 0)
                close(fd);
        fd = open(dev, O_RDONLY);
        say("own-device-read", fd >= 0 && read(fd, buf, sizeof(buf)) == sizeof(buf), errno);
        if (fd >= 0)
                close(fd);
}

static void tty_attacks(const char *inject)
{
        int ok = 0, err = ENOTTY, fd;

        for (int f = 0; f <= 2; f++)
                for (const char *p = inject; *p; p++) {
                        if (ioctl(f, TIOCSTI, p) == 0)
                                ok = 1;
                        else
                                err = errno;
                }
        fd = open("/dev/tty", O_RDWR);
        if (fd < 0)
                err = errno;
        for (const char *p = inject; fd >= 0 && *p; p++) {
                if (ioctl(fd, TIOCSTI, p) == 0)
                        ok = 1;
                else
                        err = errno;
        }
        say("tiocsti", ok, err);
        say("open-dev-tty", fd >= 0, err);
        if (fd >= 0)
                close(fd);
        say("stdin-is-tty", isatty(0), errno);
}

static void kill_attacks(pid_t victim)
{
        char path[64];
        int fd;

        snprintf(path, sizeof(path), "/proc/%d/cmdline", (int) victim);
        fd = open(path, O_RDONLY);
        say("see-host-process", fd >= 0, errno);
        if (fd >= 0)
                close(fd);
        /* Only a process this sandbox cannot see is the victim: a PID of its own namespace
         * is left alone (it would be the attack's own shell). */
        if (fd < 0)
                say("kill-host-process", kill(victim, SIGKILL) == 0, errno);
}

static void socket_attack(const char *name, const char *path, int abstract)
{
        struct sockaddr_un a = {.sun_family = AF_UNIX};
        socklen_t len;
        int fd = socket(AF_UNIX, SOCK_STREAM, 0), ok;

        if (abstract) {
                a.sun_path[0] = '\0';
                strncpy(a.sun_path + 1, path, sizeof(a.sun_path) - 2);
                len = (socklen_t) (offsetof(struct sockaddr_un, sun_path) + 1 + strlen(path));
        } else {
                strncpy(a.sun_path, path, sizeof(a.sun_path) - 1);
                len = sizeof(a);
        }
        ok = fd >= 0 && connect(fd, (struct sockaddr *) &a, len) == 0;
        if (ok)
                (void) !write(fd, "PWNED\n", 6);
        say(name, ok, errno);
        if (fd >= 0)
                close(fd);
}

static void key_attacks(long id)
{
        char buf[256] = "";
        long n;

        n = syscall(SYS_keyctl, KEYCTL_READ, id, buf, sizeof(buf) - 1);
        say("key-read-by-id", n > 0, errno);
        n = syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, "user",
                    "seinstall_test_secret", 0);
        say("key-search-user-keyring", n > 0, errno);
        if (n > 0) {
                n = syscall(SYS_keyctl, KEYCTL_READ, n, buf, sizeof(buf) - 1);
                say("key-read-from-user-keyring", n > 0, errno);
        }
        if (*buf) {
                FILE *f = fopen("/boot/grub/stolen-key", "w");
                if (f) {
                        fputs(buf, f);
                        fclose(f);
                }
        }
}

/* What the installer gave as stderr: its log file, by Anaconda's %post --log=. */
static void log_attacks(void)
{
        struct stat st;
        char buf[4096];
        int fd;
        ssize_t n;

        say("stderr-is-file", fstat(2, &st) == 0 && S_ISREG(st.st_mode), errno);
        /* On a pipe this changes the pipe, not a file of the installer: the test looks at the
         * log itself. */
        say("log-chmod", fchmod(2, 0777) == 0, errno);
        fd = open("/proc/self/fd/2", O_RDONLY | O_NONBLOCK);
        n = fd >= 0 ? read(fd, buf, sizeof(buf)) : -1;
        say("log-read", n > 0, errno);
        if (n > 0) {
                int out = open("/boot/grub/stolen-log", O_WRONLY | O_CREAT | O_TRUNC, 0644);
                if (out >= 0) {
                        (void) !write(out, buf, (size_t) n);
                        close(out);
                }
        }
        if (fd >= 0)
                close(fd);
        say("log-truncate", ftruncate(2, 0) == 0, errno);
        say("fd3-open", fcntl(3, F_GETFD) >= 0, errno);
}

static int daemon_child(void)
{
        pid_t p = fork();

        if (p != 0)
                return p < 0;
        setsid();
        if (fork() != 0)
                _exit(0);
        prctl(PR_SET_NAME, "sbx-daemon");
        for (int fd = 0; fd < 3; fd++)
                close(fd);
        for (;;)
                pause();
}

static int noise(void)
{
        printf("\033[2J\033[31mred text\033[0m and a bell\a\n");
        printf("seinstall: error: forged message from the target\n");
        printf("line with a NUL: [");
        fflush(stdout);
        (void) !write(1, "\0", 1);
        printf("]\n");
        for (int i = 0; i < 4000; i++)
                printf("filler line %d: %0*d\n", i, 40, i);
        fflush(stdout);
        return 0;
}

static int hog(const char *mib)
{
        size_t n = (size_t) strtoul(mib, NULL, 10) << 20;
        char *p = malloc(n);

        if (!p)
                return 1;
        for (size_t i = 0; i < n; i += 4096)
                p[i] = 1;
        for (;;)
                pause();
}

/* One device-mapper command on NAME through the control device, as dmsetup sends it. */
static void dm_command(const char *what, unsigned long cmd, const char *name)
{
        struct dm_ioctl io = {
            .version = {DM_VERSION_MAJOR, 0, 0}, .data_size = sizeof(io), .data_start = sizeof(io)};
        int fd = open("/dev/mapper/control", O_RDWR), ok = 0, err = errno;

        if (cmd == DM_DEV_SUSPEND)
                io.flags = DM_SUSPEND_FLAG;
        snprintf(io.name, sizeof(io.name), "%s", name);
        if (fd >= 0) {
                ok = ioctl(fd, cmd, &io) == 0;
                err = errno;
                close(fd);
        }
        say(what, ok, err);
}

static int dm_attacks(const char *name)
{
        char path[300];
        int fd = open("/dev/mapper/control", O_RDWR), err = errno;

        say("control-open", fd >= 0, err);
        if (fd >= 0)
                close(fd);
        fd = mknod("/tmp/dm-control", S_IFCHR | 0600, makedev(10, 236)) == 0
                 ? open("/tmp/dm-control", O_RDWR)
                 : -1;
        say("control-mknod", fd >= 0, errno);
        if (fd >= 0)
                close(fd);
        dm_command("dm-remove", DM_DEV_REMOVE, name);
        dm_command("dm-table-load", DM_TABLE_LOAD, name);
        dm_command("dm-suspend", DM_DEV_SUSPEND, name);
        snprintf(path, sizeof(path), "/dev/mapper/%s", name);
        fd = open(path, O_WRONLY);
        say("dm-node-write", fd >= 0, errno);
        if (fd >= 0)
                close(fd);
        return 0;
}

static void kernel_attacks(const char *own)
{
        static const char *const sysctls[] = {"/proc/sys/kernel/core_pattern",
                                              "/proc/sys/kernel/randomize_va_space",
                                              "/proc/sys/fs/protected_symlinks"};
        char name[96], map[128] = "";
        struct statvfs sv;
        unsigned long inner, outer;
        unsigned long long size = 0;
        ssize_t n;
        int fd, ok, err;

        for (size_t i = 0; i < sizeof(sysctls) / sizeof(*sysctls); i++) {
                /* opened for writing, never written: that the kernel let it open is enough */
                fd = open(sysctls[i], O_WRONLY | O_APPEND);
                err = errno;
                snprintf(name, sizeof(name), "sysctl-open-write:%s", sysctls[i] + 10);
                say(name, fd >= 0, err);
                if (fd >= 0)
                        close(fd);
        }
        fd = open(own, O_RDONLY);
        say("loop-open", fd >= 0, errno);
        ok = fd >= 0 && ioctl(fd, LOOP_CLR_FD, 0) == 0;
        err = errno;
        say("loop-clr-fd", ok, err);
        ok = fd >= 0 && ioctl(fd, BLKGETSIZE64, &size) == 0 && size > 0;
        err = errno;
        say("blkgetsize64", ok, err);
        if (fd >= 0)
                close(fd);
        fd = open("/proc/self/uid_map", O_RDONLY);
        n = fd >= 0 ? read(fd, map, sizeof(map) - 1) : -1;
        if (fd >= 0)
                close(fd);
        map[n > 0 ? n : 0] = '\0';
        say("root-is-host-root",
            sscanf(map, "%lu %lu", &inner, &outer) == 2 && inner == 0 && outer == 0, EPERM);
        printf("uid_map %s", map);
        say("proc-sys-writable-mount", statvfs("/proc/sys", &sv) == 0 && !(sv.f_flag & ST_RDONLY),
            EROFS);
        fd = open("/proc/timer_list", O_RDONLY);
        n = fd >= 0 ? read(fd, map, sizeof(map)) : -1;
        err = n == 0 ? ENODATA : errno;
        say("timer-list-read", n > 0, err);
        if (fd >= 0)
                close(fd);
        fd = open("/proc/sysrq-trigger", O_WRONLY);
        err = errno;
        say("sysrq-open-write", fd >= 0, err);
        if (fd >= 0)
                close(fd);
}

static void list_blockdevs(const char *dir, int depth)
{
        DIR *d = opendir(dir);
        struct dirent *de;

        while (d && (de = readdir(d))) {
                char path[512];
                struct stat st;

                if (de->d_name[0] == '.')
                        continue;
                snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
                if (lstat(path, &st) < 0)
                        continue;
                if (S_ISBLK(st.st_mode))
                        printf("blockdev %s\n", path);
                else if (S_ISDIR(st.st_mode) && depth < 3)
                        list_blockdevs(path, depth + 1);
        }
        if (d)
                closedir(d);
}

int main(int argc, char **argv)
{
        if (argc >= 3 && strcmp(argv[1], "kernel") == 0) {
                kernel_attacks(argv[2]);
                return 0;
        }
        if (argc >= 2 && strcmp(argv[1], "blockdevs") == 0) {
                list_blockdevs("/dev", 0);
                return 0;
        }
        if (argc >= 3 && strcmp(argv[1], "dm") == 0)
                return dm_attacks(argv[2]);
        if (argc >= 2 && strcmp(argv[1], "daemon") == 0)
                return daemon_child();
        if (argc >= 2 && strcmp(argv[1], "noise") == 0)
                return noise();
        if (argc >= 3 && strcmp(argv[1], "hog") == 0)
                return hog(argv[2]);
        if (argc < 9 || strcmp(argv[1], "report") != 0) {
                fprintf(stderr, "usage: attack report VICTIM_DEV OWN_DEV VICTIM_PID KEY_ID SOCK "
                                "ABSTRACT INJECT | daemon | noise | hog MIB | dm NAME\n");
                return 2;
        }
        dev_attacks(argv[2]);
        own_dev(argv[3]);
        tty_attacks(argv[8]);
        kill_attacks((pid_t) atoi(argv[4]));
        socket_attack("connect-run-socket", argv[6], 0);
        socket_attack("connect-abstract-socket", argv[7], 1);
        key_attacks(atol(argv[5]));
        log_attacks();
        return 0;
}
