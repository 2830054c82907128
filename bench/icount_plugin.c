/* icount_plugin: a QEMU TCG plugin (host shared object) that counts the guest
 * instructions executed and, each time the guest executes the first
 * instruction at address `mark`, prints the count since the previous mark.
 * bench/icount_arm.sh loads it into qemu-user to cost the cases of tl_bench
 * on Arm (docs/performance.md); icount_arm.c calls its marker function
 * around each measured region.
 *
 *   qemu-aarch64 -plugin icount_plugin.so,mark=0x400720 -d plugin -D counts.txt ./prog
 *
 * Counting is per translated block (the block's instruction count added
 * inline when it starts), so it is exact for straight-line code and for
 * loops; a block left early by a fault would be over-counted, which these
 * programs do not do. Deterministic: no timing is involved.
 *
 * Debian ships qemu-user with plugin support but not the plugin header, so
 * the few entry points used are declared here, as QEMU's plugin API
 * (version 1, QEMU 7.x) defines them. Host C only; not part of the library. */
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
struct qemu_info_t;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS = 0 };
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 = 0 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op, void *ptr,
                                              uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_udata_cb_t cb,
                                            enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_outs(const char *string);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

static uint64_t g_count, g_last, g_mark;

static void on_mark(unsigned int vcpu, void *udata)
{
    (void)vcpu, (void)udata;
    char line[32];
    snprintf(line, sizeof line, "%" PRIu64 "\n", g_count - g_last);
    qemu_plugin_outs(line);
    g_last = g_count;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &g_count, n);
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        if (qemu_plugin_insn_vaddr(insn) == g_mark)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_mark, QEMU_PLUGIN_CB_NO_REGS, NULL);
    }
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id, const struct qemu_info_t *info,
                                                               int argc, char **argv)
{
    (void)info;
    for (int i = 0; i < argc; i++)
        if (strncmp(argv[i], "mark=", 5) == 0) g_mark = strtoull(argv[i] + 5, NULL, 0);
    if (!g_mark) {
        fprintf(stderr, "icount_plugin: needs mark=ADDRESS (the guest's marker function)\n");
        return -1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    return 0;
}
