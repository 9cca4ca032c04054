/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cmd-avc.c — `seinstall avc`: this boot's denials, caused by a label or by the policy.
 * Parsing and printing only. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *f)
{
        fputs(_("Usage: seinstall avc [--log FILE] [--root DIR] [--json]\n"
                "\n"
                "Read this boot's AVC denials and say for each whether a wrong label caused it\n"
                "(the file, the label it has, the one it should have, the fix) or the policy\n"
                "(which permission was denied to which domain on which type, with counts).\n"
                "\n"
                "  --log FILE  a saved audit or kernel log (default: the audit log when auditd\n"
                "              runs, else the kernel log)\n"
                "  --root DIR  judge labels by the file contexts of this tree (default /)\n"
                "  --json      print one JSON document on stdout\n"),
              f);
}

static const char *get(const struct seinstall_avc_result *rep, size_t i, enum seinstall_avc_field f)
{
        return seinstall_avc_result_get_group_field(rep, i, f);
}

/* A field for human output: escaped so that names from the log cannot drive the terminal. */
static const char *esc(const struct seinstall_avc_result *rep, size_t i, enum seinstall_avc_field f)
{
        const char *v = get(rep, i, f);
        return v ? cli_esc(v) : NULL;
}

static int print_json(const struct seinstall_avc_result *rep)
{
        _cleanup_free_ char *doc = NULL;
        struct json j = {0};
        int r = seinstall_avc_result_to_json(rep, &doc);

        if (r < 0)
                return cli_error(r, "writing the JSON document: %s", strerror(-r));
        json_raw(&j, doc);
        return cli_print_json(&j, "avc");
}

static void print_text(const struct seinstall_avc_result *rep)
{
        size_t n = seinstall_avc_result_get_n_groups(rep), total, label;

        total = seinstall_avc_result_get_n_denials(rep);
        label = seinstall_avc_result_get_n_label(rep);
        printf(ngettext("%zu denial in %s: %zu caused by labels, %zu by the policy\n",
                        "%zu denials in %s: %zu caused by labels, %zu by the policy\n", total),
               total, cli_esc(seinstall_avc_result_get_source(rep)), label, total - label);
        if (seinstall_avc_result_get_n_unsearched(rep))
                printf(_("not searched for: %zu (denials naming their file by device and inode "
                         "only; the search budget for the whole log was used up)\n"),
                       seinstall_avc_result_get_n_unsearched(rep));
        if (label) {
                printf("%s", _("\nCaused by labels (relabel these files):\n"));
                for (size_t i = 0; i < n; i++) {
                        const char *path = esc(rep, i, SEINSTALL_AVC_FIELD_PATH),
                                   *want = esc(rep, i, SEINSTALL_AVC_FIELD_EXPECTED);
                        if (seinstall_avc_result_get_group_cause(rep, i) !=
                            SEINSTALL_AVC_CAUSE_LABEL)
                                continue;
                        printf("  %s\n", path ? path
                                         : esc(rep, i, SEINSTALL_AVC_FIELD_NAME)
                                             ? esc(rep, i, SEINSTALL_AVC_FIELD_NAME)
                                             : _("(unknown file)"));
                        printf(_("    labeled %s, file contexts say %s\n"),
                               esc(rep, i, SEINSTALL_AVC_FIELD_TCONTEXT),
                               want ? want : _("(none: it was never labeled)"));
                        /* TRANSLATORS: "denied { read } to httpd_t (httpd), 3 times" */
                        printf(ngettext("    denied { %s } to %s (%s), %u time\n",
                                        "    denied { %s } to %s (%s), %u times\n",
                                        seinstall_avc_result_get_group_count(rep, i)),
                               esc(rep, i, SEINSTALL_AVC_FIELD_PERMS),
                               esc(rep, i, SEINSTALL_AVC_FIELD_DOMAIN),
                               esc(rep, i, SEINSTALL_AVC_FIELD_COMM)
                                   ? esc(rep, i, SEINSTALL_AVC_FIELD_COMM)
                                   : "?",
                               seinstall_avc_result_get_group_count(rep, i));
                        printf(_("    fix: %s\n"), cli_cmd(get(rep, i, SEINSTALL_AVC_FIELD_FIX)));
                }
        }
        if (total > label) {
                printf("%s", _("\nCaused by the policy (labels right):\n"));
                /* TRANSLATORS: the column heads of avc's table of policy denials */
                printf("  %6s  %-24s %-24s %-12s %s\n", _("count"), _("domain"), _("type"),
                       _("class"), _("denied"));
                for (size_t i = 0; i < n; i++) {
                        const char *path = esc(rep, i, SEINSTALL_AVC_FIELD_PATH),
                                   *name = esc(rep, i, SEINSTALL_AVC_FIELD_NAME);
                        if (seinstall_avc_result_get_group_cause(rep, i) !=
                            SEINSTALL_AVC_CAUSE_POLICY)
                                continue;
                        printf("  %6u  %-24s %-24s %-12s { %s }%s%s%s\n",
                               seinstall_avc_result_get_group_count(rep, i),
                               esc(rep, i, SEINSTALL_AVC_FIELD_DOMAIN),
                               esc(rep, i, SEINSTALL_AVC_FIELD_TYPE),
                               esc(rep, i, SEINSTALL_AVC_FIELD_TCLASS),
                               esc(rep, i, SEINSTALL_AVC_FIELD_PERMS),
                               path || name ? _("  e.g. ") : "",
                               path   ? path
                               : name ? name
                                      : "",
                               seinstall_avc_result_get_group_permissive(rep, i)
                                   ? _("  (permissive)")
                                   : "");
                }
        }
}

int cmd_avc(int argc, char **argv)
{
        const struct opts_spec spec = {.shared = OPTS_COMMON | OPT_BIT(OPT_LOG)};
        _cleanup_(opts_done) struct opts o = OPTS_INIT;
        struct seinstall_ctx *ctx = NULL;
        struct seinstall_avc_result *rep = NULL;
        int r;

        r = cli_parse("avc", usage, &o, &spec, argc, argv);
        if (r != CLI_GO_ON)
                return r;
        r = cli_open(&o, &ctx);
        if (r != 0)
                return r;
        r = seinstall_avc_read(ctx, o.log, &rep);
        if (r < 0) {
                r = cli_fail(ctx, r, "avc");
                seinstall_unref(ctx);
                return r;
        }
        if (o.json)
                r = print_json(rep);
        else
                print_text(rep);
        seinstall_avc_result_unref(rep);
        seinstall_unref(ctx);
        return o.json ? r : EXIT_OK;
}
