/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * config.c — the target's /etc/selinux/config: reading SELINUX= and SELINUXTYPE=, rewriting
 * them (atomically, keeping every comment, the order and the keys seinstall does not own, with
 * exactly one of each afterwards) and feeding them into the settings as source "target".
 */
#include <fcntl.h>

#include "seinstall-private.h"
#include "config.h"
#include "settings.h"

void si_config_done(struct si_config *c)
{
        free(c->type);
        c->type = NULL;
}

/* If the line (blanks stripped) assigns @key, point *ret_value/len at the value, unquoted. */
static bool line_assigns(const char *line, size_t len, const char *key, const char **ret_value,
                         size_t *ret_vlen)
{
        size_t klen = strlen(key);

        len = strip_range(&line, len);
        if (len <= klen || strncmp(line, key, klen) != 0)
                return false;
        line += klen, len -= klen;
        len = strip_range(&line, len);
        if (len == 0 || *line != '=')
                return false;
        line++, len--;
        len = strip_range(&line, len);
        if (len >= 2 && (line[0] == '"' || line[0] == '\'') && line[len - 1] == line[0])
                line++, len -= 2;
        *ret_value = line;
        *ret_vlen = len;
        return true;
}

int si_config_parse(const char *text, size_t len, struct si_config *ret)
{
        const char *pos = text, *end = text + len, *line, *v;
        size_t n, vlen;
        struct si_config c = {.present = true, .mode = SEINSTALL_MODE_INVALID};

        /* libselinux takes the first match of each key; so do we. */
        while (next_line(&pos, end, &line, &n)) {
                if (c.mode == SEINSTALL_MODE_INVALID &&
                    line_assigns(line, n, "SELINUX", &v, &vlen)) {
                        _cleanup_free_ char *val = strndup(v, vlen);
                        if (!val)
                                return -ENOMEM;
                        c.mode = si_config_mode_from_string(val);
                } else if (!c.type && line_assigns(line, n, "SELINUXTYPE", &v, &vlen) && vlen > 0) {
                        c.type = strndup(v, vlen);
                        if (!c.type)
                                return -ENOMEM;
                }
        }
        *ret = c;
        return 0;
}

int si_config_read(struct seinstall_ctx *ctx, struct si_config *ret)
{
        _cleanup_free_ char *text = NULL;
        size_t len;
        int r;

        ctx->counters.config_reads++;
        r = si_root_read_file(ctx, SI_CONFIG_PATH, SI_TEXT_FILE_MAX, &text, &len);
        if (r == -ENOENT) {
                *ret = (struct si_config){.mode = SEINSTALL_MODE_INVALID};
                return 0;
        }
        if (r < 0)
                return si_error(ctx, r, "Could not read %s%s: %s", ctx->root, SI_CONFIG_PATH,
                                si_strerror(ctx, r));
        return si_config_parse(text, len, ret);
}

int si_config_policy_type(struct seinstall_ctx *ctx, char **ret)
{
        struct si_config c = {0};
        char *type;
        int r = si_config_read(ctx, &c);

        if (r < 0)
                return r;
        type = strdup(c.type ? c.type : "default");
        si_config_done(&c);
        if (!type)
                return -ENOMEM;
        *ret = type;
        return 0;
}

static const char new_config_header[] =
    "# This file controls the state of SELinux on the system.\n"
    "# SELINUX= can take one of these three values:\n"
    "# enforcing - SELinux security policy is enforced.\n"
    "# permissive - SELinux prints warnings instead of enforcing.\n"
    "# disabled - No SELinux policy is loaded.\n"
    "# (written by seinstall)\n";

int si_config_render(const char *old, size_t len, enum seinstall_mode mode, const char *type,
                     char **ret)
{
        struct sbuf b = {};
        const char *pos = old, *end = old ? old + len : NULL, *line, *v;
        size_t n, vlen;
        bool have_mode = false, have_type = false;
        int r = 0;

        if (!si_config_mode_valid(mode) || !si_policy_type_valid(type))
                return -EINVAL;
        if (!old)
                r = sbuf_puts(&b, new_config_header);
        /* Replace the first assignment of each key in place, drop later ones: two SELINUX= lines
         * are read differently by different tools. */
        while (r >= 0 && old && next_line(&pos, end, &line, &n)) {
                size_t full = (size_t) (pos - line); /* with its line end */
                if (line_assigns(line, n, "SELINUX", &v, &vlen)) {
                        if (!have_mode)
                                r = sbuf_printf(&b, "SELINUX=%s\n", seinstall_mode_to_string(mode));
                        have_mode = true;
                } else if (line_assigns(line, n, "SELINUXTYPE", &v, &vlen)) {
                        if (!have_type)
                                r = sbuf_printf(&b, "SELINUXTYPE=%s\n", type);
                        have_type = true;
                } else {
                        r = sbuf_append(&b, line, full);
                        if (r >= 0 && pos == end && full > 0 && line[full - 1] != '\n')
                                r = sbuf_puts(&b, "\n");
                }
        }
        if (r >= 0 && !have_mode)
                r = sbuf_printf(&b, "SELINUX=%s\n", seinstall_mode_to_string(mode));
        if (r >= 0 && !have_type)
                r = sbuf_printf(&b, "SELINUXTYPE=%s\n", type);
        if (r < 0) {
                sbuf_free(&b);
                return r;
        }
        *ret = sbuf_steal(&b);
        return *ret ? 0 : -ENOMEM;
}

/* What rewriting a config that said @old changes, naming only the keys whose value changes:
 * "SELINUX=permissive (was enforcing)"; a key kept as it was is no change. A file rewritten
 * with the same values (a second assignment dropped) says that. */
static int config_change_text(const struct si_config *old, enum seinstall_mode mode,
                              const char *type, struct sbuf *what)
{
        bool mode_changes = old->mode != mode, type_changes = !old->type || !streq(old->type, type);
        int r = 0;

        if (mode_changes)
                r = sbuf_printf(what, "SELINUX=%s (was %s)", seinstall_mode_to_string(mode),
                                old->mode == SEINSTALL_MODE_INVALID
                                    ? "unset"
                                    : seinstall_mode_to_string(old->mode));
        if (r >= 0 && type_changes)
                r = sbuf_printf(what, "%sSELINUXTYPE=%s (was %s)", mode_changes ? ", " : "", type,
                                old->type ? old->type : "unset");
        if (r >= 0 && !mode_changes && !type_changes)
                r = sbuf_printf(what, "rewritten, keeping SELINUX=%s and SELINUXTYPE=%s",
                                seinstall_mode_to_string(mode), type);
        return r;
}

int si_config_write(struct seinstall_ctx *ctx, enum seinstall_mode mode, const char *type,
                    unsigned wflags, struct sbuf *what)
{
        _cleanup_free_ char *old = NULL, *new = NULL;
        struct si_config c = {};
        size_t len = 0;
        int r;

        r = si_root_read_replaced(ctx, SI_CONFIG_PATH, SI_TEXT_FILE_MAX, &old, &len);
        if (r < 0 && r != -ENOENT)
                return si_error(ctx, r, "Could not read %s%s: %s", ctx->root, SI_CONFIG_PATH,
                                si_strerror(ctx, r));
        /* Strings end at a NUL: rendering such a file would compare or write only its first
         * part (apply then reported a mode the file did not say). */
        if (old && memchr(old, '\0', len)) {
                const char *nul = memchr(old, '\0', len);
                unsigned line = 1;
                for (const char *p = old; p < nul; p++)
                        line += *p == '\n';
                return si_error(ctx, -EBADMSG,
                                "%s%s:%u: not a text file (NUL byte): leaving it alone; "
                                "remove the NUL bytes and run again",
                                ctx->root, SI_CONFIG_PATH, line);
        }
        r = si_config_render(old, len, mode, type, &new);
        if (r < 0)
                return r;
        if (old && streq(old, new))
                return 0;
        if (old) {
                r = si_config_parse(old, len, &c);
                if (r < 0)
                        return r;
        }
        r = si_root_mkdir_p(ctx, "/etc/selinux", 0755, wflags);
        if (r >= 0)
                r = si_root_write_atomic(ctx, SI_CONFIG_PATH, new, strlen(new), 0644, wflags);
        if (r < 0) {
                si_config_done(&c);
                return si_error(ctx, r, "Could not write %s%s: %s", ctx->root, SI_CONFIG_PATH,
                                si_strerror(ctx, r));
        }
        if (!old)
                r = sbuf_printf(what, "created: SELINUX=%s SELINUXTYPE=%s",
                                seinstall_mode_to_string(mode), type);
        else
                r = config_change_text(&c, mode, type, what);
        si_config_done(&c);
        return r < 0 ? r : 1;
}

int seinstall_settings_load_target(struct seinstall_settings *s, struct seinstall_ctx *ctx)
{
        struct si_config c = {};
        int r;

        if (!s || !ctx)
                return -EINVAL;
        r = si_config_read(ctx, &c);
        if (r < 0)
                return r;
        if (c.mode != SEINSTALL_MODE_INVALID)
                r = seinstall_settings_set_mode(s, c.mode, SEINSTALL_SOURCE_TARGET);
        if (r >= 0 && c.type && si_policy_type_valid(c.type))
                r = seinstall_settings_set_policy(s, c.type, SEINSTALL_SOURCE_TARGET);
        si_config_done(&c);
        return r < 0 ? r : 0;
}
