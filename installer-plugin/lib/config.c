/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * config.c — the target's /etc/selinux/config: reading SELINUX= and SELINUXTYPE=, the text
 * that rewrites them (keeping every comment, the order and the keys seinstall does not own,
 * with exactly one of each afterwards; config-write.c writes it). settings.c feeds what it
 * reads into the settings as source "target".
 */
#include <fcntl.h>

#include "seinstall-private.h"
#include "config.h"

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
