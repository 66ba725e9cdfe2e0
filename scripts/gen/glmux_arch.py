# SPDX-License-Identifier: MIT
"""Per-architecture stub flavours for gen_dispatch.py.

Each flavour (the --mode argument) knows its stub geometry, which the generator writes into
glmux_constants.h (with the slot counts) for C and assembly alike, and the assembly of three
kinds of code: a GL entry stub (find the current table through the initial-exec TLS variable
_glapi_tls_Current and jump through one slot; the same template with the TLS variable
glmux_tls_below makes libGLdispatch's "below" stubs, the bottom of a GL layer chain), a GLX
entry stub (jump through one element of glmux_glx_entry_targets) and, where the flavour has
lazy tables, the resolver trampolines. The generated assembly names every size and
offset through the macros of glmux_constants.h; nothing is typed twice.

Geometry (stub size and alignment, stub type) follows libglvnd's flavours so that a vendor's
isPatchSupported(type, size) sees the pair it knows.
"""

ENDBR = "#ifdef __CET__\n#define GLMUX_ENDBR {insn}\n#else\n#define GLMUX_ENDBR\n#endif\n"
# AArch64 "bti c" (a NOP without BTI), always there like libglvnd's stubs: a library built with
# branch protection needs it at every indirect-call target.
BTI_C = "    hint #34\n"


class Flavour:
    """One stub flavour. Subclasses provide the assembly."""
    name = "pure_c"
    stub_type = "__GLDISPATCH_STUB_UNKNOWN"
    stub_size = 0           # bytes between GL entry stubs (the size vendors are told)
    stub_align = 0          # alignment of the page-aligned wtext section
    below_size = 0          # bytes between libGLdispatch's below stubs (never patched: tight)
    glx_stub_size = 0       # bytes between GLX entry stubs
    ptr_size = 0            # 0: the C compiler knows (pure C)
    lazy_size = 0           # 0: no lazy trampolines, tables fill at make-current
    condition = None        # preprocessor test that the target is this architecture
    asm = False

    def prologue(self):
        return ""

    def gl_stub(self, slot, tls="_glapi_tls_Current"):
        """Jump through slot of the table the initial-exec TLS pointer tls points at (the
        entry stubs read _glapi_tls_Current; libGLdispatch's "below" stubs, the bottom of a
        GL layer chain, read glmux_tls_below, the real vendor table)."""
        raise NotImplementedError

    def glx_stub(self, index):
        raise NotImplementedError

    def lazy_common(self):
        raise NotImplementedError

    def lazy_stub(self, slot):
        raise NotImplementedError

    def glx_size_macro(self):
        """#define GLMUX_GLX_ENTRY_SIZE: bytes between GLX entry stubs."""
        return f"#define GLMUX_GLX_ENTRY_SIZE {self.glx_stub_size}\n"


class X86_64(Flavour):
    name = "x86_64_tls"
    stub_type = "__GLDISPATCH_STUB_X86_64"
    stub_size = 32
    stub_align = 4096
    below_size = 32
    glx_stub_size = 8       # 16 with CET's endbr64 (glx_size_macro)
    ptr_size = 8
    lazy_size = 16
    condition = "defined(__x86_64__)"
    asm = True

    def prologue(self):
        return ENDBR.format(insn="endbr64")

    def gl_stub(self, slot, tls="_glapi_tls_Current"):
        return ("    GLMUX_ENDBR\n"
                f"    movq {tls}@GOTTPOFF(%rip), %rax\n"
                "    movq %fs:(%rax), %r11\n"
                f"    jmp *({slot} * GLMUX_PTR_SIZE)(%r11)\n")

    def glx_stub(self, index):
        return ("    GLMUX_ENDBR\n"
                f"    jmp *(glmux_glx_entry_targets + {index} * GLMUX_PTR_SIZE)(%rip)\n")

    def lazy_common(self):
        saves = [f"    movdqa %xmm{i}, {16 * i}(%rsp)\n" for i in range(8)]
        saves += [f"    movq %{r}, {128 + 8 * i}(%rsp)\n"
                  for i, r in enumerate(["rdi", "rsi", "rdx", "rcx", "r8", "r9"])]
        loads = []
        for i in range(8):
            loads.append(f"    movdqa {16 * i}(%rsp), %xmm{i}\n")
        for i, r in enumerate(["rdi", "rsi", "rdx", "rcx", "r8", "r9"]):
            loads.append(f"    movq {128 + 8 * i}(%rsp), %{r}\n")
        return ("    /* entry: %eax = slot; %rsp = 8 mod 16 (the caller's return address) */\n"
                "    subq $184, %rsp\n" + "".join(saves)
                + "    movl %eax, %edi\n    call glmux_lazy_resolve\n    movq %rax, %r11\n"
                + "".join(loads) + "    addq $184, %rsp\n    jmp *%r11\n")

    def lazy_stub(self, slot):
        return f"    GLMUX_ENDBR\n    movl ${slot}, %eax\n    jmp glmux_lazy_common\n"

    def glx_size_macro(self):
        # jmp *rel32(%rip) is 6 bytes: an 8-byte cell, 16 when endbr64 (4 bytes) comes first.
        return (f"#ifdef __CET__\n#define GLMUX_GLX_ENTRY_SIZE {2 * self.glx_stub_size}\n#else\n"
                f"#define GLMUX_GLX_ENTRY_SIZE {self.glx_stub_size}\n#endif\n")


class X86(Flavour):
    """32-bit x86: no PC-relative loads, so each stub finds the GOT with call/pop (a call to
    the next instruction, which processors keep off their return-address predictor)."""
    name = "x86_tls"
    stub_type = "__GLDISPATCH_STUB_X86"
    stub_size = 32
    stub_align = 4096
    below_size = 32
    glx_stub_size = 32
    ptr_size = 4
    lazy_size = 16
    condition = "defined(__i386__)"
    asm = True

    def prologue(self):
        return ENDBR.format(insn="endbr32")

    def gl_stub(self, slot, tls="_glapi_tls_Current"):
        return ("    GLMUX_ENDBR\n"
                "    call 1f\n1:  popl %ecx\n"
                "    addl $_GLOBAL_OFFSET_TABLE_ + (. - 1b), %ecx\n"
                f"    movl {tls}@GOTNTPOFF(%ecx), %ecx\n"
                "    movl %gs:(%ecx), %ecx\n"
                f"    jmp *({slot} * GLMUX_PTR_SIZE)(%ecx)\n")

    def glx_stub(self, index):
        return ("    GLMUX_ENDBR\n"
                "    call 1f\n1:  popl %ecx\n"
                "    addl $_GLOBAL_OFFSET_TABLE_ + (. - 1b), %ecx\n"
                f"    jmp *glmux_glx_entry_targets@GOTOFF+({index} * GLMUX_PTR_SIZE)(%ecx)\n")

    def lazy_common(self):
        # cdecl passes every argument on the stack: only the slot needs a place, and the call
        # keeps the 16-byte stack alignment (12 mod 16 at entry).
        return ("    /* entry: %eax = slot; %esp = 12 mod 16 */\n"
                "    subl $8, %esp\n    pushl %eax\n    call glmux_lazy_resolve\n"
                "    addl $12, %esp\n    jmp *%eax\n")

    def lazy_stub(self, slot):
        return f"    GLMUX_ENDBR\n    movl ${slot}, %eax\n    jmp glmux_lazy_common\n"


class AArch64(Flavour):
    """AArch64 with initial-exec TLS (libglvnd's aarch64 flavour reads a global or TSD)."""
    name = "aarch64_tls"
    stub_type = "__GLDISPATCH_STUB_AARCH64"
    stub_size = 128
    stub_align = 65536
    below_size = 32
    glx_stub_size = 16
    ptr_size = 8
    lazy_size = 16
    condition = "defined(__aarch64__)"
    asm = True

    def prologue(self):
        return ""

    def gl_stub(self, slot, tls="_glapi_tls_Current"):
        # x16/x17 are the intra-procedure-call scratch registers.
        return (BTI_C +
                "    mrs x16, tpidr_el0\n"
                f"    adrp x17, :gottprel:{tls}\n"
                f"    ldr x17, [x17, #:gottprel_lo12:{tls}]\n"
                "    ldr x16, [x16, x17]\n"
                f"    mov x17, #({slot} * GLMUX_PTR_SIZE)\n"
                "    ldr x16, [x16, x17]\n"
                "    br x16\n")

    def glx_stub(self, index):
        target = f"glmux_glx_entry_targets + {index} * GLMUX_PTR_SIZE"
        return (BTI_C +
                f"    adrp x16, {target}\n"
                f"    ldr x16, [x16, #:lo12:{target}]\n"
                "    br x16\n")

    def lazy_common(self):
        # Save x0-x8 (x8: indirect result) and q0-q7 around the resolver call.
        return ("    /* entry: w17 = slot */\n" + BTI_C +
                "    stp x29, x30, [sp, #-224]!\n    mov x29, sp\n"
                "    stp x0, x1, [sp, #16]\n    stp x2, x3, [sp, #32]\n"
                "    stp x4, x5, [sp, #48]\n    stp x6, x7, [sp, #64]\n    str x8, [sp, #80]\n"
                "    stp q0, q1, [sp, #96]\n    stp q2, q3, [sp, #128]\n"
                "    stp q4, q5, [sp, #160]\n    stp q6, q7, [sp, #192]\n"
                "    mov w0, w17\n    bl glmux_lazy_resolve\n    mov x16, x0\n"
                "    ldp q0, q1, [sp, #96]\n    ldp q2, q3, [sp, #128]\n"
                "    ldp q4, q5, [sp, #160]\n    ldp q6, q7, [sp, #192]\n"
                "    ldp x0, x1, [sp, #16]\n    ldp x2, x3, [sp, #32]\n"
                "    ldp x4, x5, [sp, #48]\n    ldp x6, x7, [sp, #64]\n    ldr x8, [sp, #80]\n"
                "    ldp x29, x30, [sp], #224\n    br x16\n")

    def lazy_stub(self, slot):
        return BTI_C + f"    mov w17, #{slot}\n    b glmux_lazy_common\n"


class ARMv7(Flavour):
    """32-bit ARM (armhf, ARMv7-A, ARM state): the thread pointer comes from TPIDRURO."""
    name = "armv7_tls"
    stub_type = "__GLDISPATCH_STUB_ARMV7_ARM"
    stub_size = 128
    stub_align = 4096
    below_size = 64
    glx_stub_size = 64
    ptr_size = 4
    lazy_size = 16
    condition = "defined(__arm__)"
    asm = True

    def prologue(self):
        return "    .syntax unified\n    .arm\n"

    def gl_stub(self, slot, tls="_glapi_tls_Current"):
        # r0-r3 carry arguments and ip is the only free register: borrow r0 and r1.
        return ("    push {r0, r1}\n"
                "    mrc p15, 0, r0, c13, c0, 3\n"
                "    ldr r1, 1f\n"
                "0:  ldr r1, [pc, r1]\n"
                "    ldr r0, [r0, r1]\n"
                f"    movw r1, #({slot} * GLMUX_PTR_SIZE)\n"
                "    ldr ip, [r0, r1]\n"
                "    pop {r0, r1}\n"
                "    bx ip\n"
                f"1:  .word {tls}(gottpoff) + (1b - 0b - 8)\n")

    def glx_stub(self, index):
        return ("    ldr ip, 1f\n"
                "0:  ldr ip, [pc, ip]\n"
                "    bx ip\n"
                f"1:  .word glmux_glx_entry_targets + {index} * GLMUX_PTR_SIZE - (0b + 8)\n")

    def lazy_common(self):
        # Save r0-r3 and d0-d7 (the hard-float argument registers); 8-byte aligned stack.
        return ("    /* entry: ip = slot */\n"
                "    push {r0, r1, r2, r3, r4, lr}\n"
                "    vpush {d0-d7}\n"
                "    mov r0, ip\n    bl glmux_lazy_resolve\n    mov ip, r0\n"
                "    vpop {d0-d7}\n"
                "    pop {r0, r1, r2, r3, r4, lr}\n    bx ip\n")

    def lazy_stub(self, slot):
        return f"    movw ip, #{slot}\n    b glmux_lazy_common\n"


FLAVOURS = {f.name: f for f in (Flavour(), X86_64(), X86(), AArch64(), ARMv7())}


# x86-64 groups its lazy trampolines: 128 bytes of trampolines (4 bytes each, 8 with CET's
# endbr64) and a 16-byte tail that loads the slot's high byte (gen_dispatch.py gen_lazy).
# Slot numbers must fit in 16 bits.
LAZY_GROUP_BYTES = 144


def lazy_macros(f):
    if f.name == "x86_64_tls":
        return ("#ifdef __CET__\n#define GLMUX_LAZY_SIZE 8\n#else\n#define GLMUX_LAZY_SIZE 4\n"
                "#endif\n#define GLMUX_LAZY_GROUP (128 / GLMUX_LAZY_SIZE)\n"
                f"#define GLMUX_LAZY_GROUP_BYTES {LAZY_GROUP_BYTES}\n")
    return (f"#define GLMUX_LAZY_SIZE {f.lazy_size}\n#define GLMUX_LAZY_GROUP 1\n"
            "#define GLMUX_LAZY_GROUP_BYTES GLMUX_LAZY_SIZE\n")


def constants_header(flavour, header, glx_count, static_slots, dynamic_slots):
    """glmux_constants.h: the numbers C and assembly share (slot counts, the flavour's stub
    geometry); only #defines, so that .S files include it too."""
    f = flavour
    lines = [header, "#ifndef GLMUX_CONSTANTS_H\n#define GLMUX_CONSTANTS_H\n\n",
             "/* The numbers C and assembly share. Only #defines: .S files include it too. */\n\n",
             "/* Dispatch slots: the frozen static ones (gl_slots.txt), then dynamic ones. */\n",
             f"#define GLMUX_STATIC_SLOTS {static_slots}\n",
             f"#define GLMUX_DYNAMIC_SLOTS {dynamic_slots}\n",
             "#define GLMUX_TOTAL_SLOTS (GLMUX_STATIC_SLOTS + GLMUX_DYNAMIC_SLOTS)\n\n",
             f"/* Stub flavour {f.name}. */\n",
             f'#define GLMUX_STUB_FLAVOUR "{f.name}"\n']
    if f.asm:
        lines += [f"#if !({f.condition})\n#error glmux_constants.h: generated for {f.name}, "
                  "compiled for another architecture\n#endif\n",
                  "#define GLMUX_HAVE_ASM_ENTRY 1\n",
                  "/* GL entry stubs: size (what vendors are told), alignment, patch type. */\n",
                  f"#define GLMUX_STUB_SIZE {f.stub_size}\n",
                  f"#define GLMUX_STUB_ALIGN {f.stub_align}\n",
                  f"#define GLMUX_STUB_TYPE {f.stub_type}\n",
                  f"#define GLMUX_PTR_SIZE {f.ptr_size}\n",
                  "/* libGLdispatch's below stubs (GL layers): bytes between two. */\n",
                  f"#define GLMUX_BELOW_SIZE {f.below_size}\n",
                  "/* Lazy tables: resolver trampolines of GLMUX_LAZY_SIZE bytes, GLMUX_LAZY_GROUP\n"
                  " * of them in GLMUX_LAZY_GROUP_BYTES (trampoline i is at glmux_lazy_start +\n"
                  " * (i / GROUP) * GROUP_BYTES + (i % GROUP) * SIZE). */\n",
                  f"#define GLMUX_HAVE_LAZY {1 if f.lazy_size else 0}\n",
                  lazy_macros(f),
                  "/* Stubs for names no table knew at build time. */\n",
                  "#define GLMUX_HAVE_DYNAMIC_STUBS 1\n",
                  f.glx_size_macro(),
                  "#define GLMUX_C_FORWARD 0\n"]
    else:
        lines += ["#define GLMUX_HAVE_ASM_ENTRY 0\n",
                  "#define GLMUX_STUB_SIZE 0\n",
                  "#define GLMUX_STUB_TYPE __GLDISPATCH_STUB_UNKNOWN\n",
                  "#define GLMUX_HAVE_LAZY 0\n#define GLMUX_LAZY_SIZE 0\n",
                  "#define GLMUX_GLX_ENTRY_SIZE 0\n",
                  "/*\n * Pure C forwards calls of unknown signature (dynamic GL slots, generated GLX\n"
                  " * stubs) with GCC's __builtin_apply where that is known to pass every argument\n"
                  " * and result: x86-64, AArch64, 32-bit ARM hard-float, RISC-V 64, s390x.\n"
                  " * Elsewhere (PowerPC64 ELFv2 loses stack arguments, i386 too) such names\n"
                  " * give NULL.\n */\n",
                  "#if defined(__GNUC__) && !defined(__clang__) && (defined(__x86_64__) || "
                  "defined(__aarch64__) || \\\n    (defined(__arm__) && defined(__ARM_PCS_VFP)) || "
                  "(defined(__riscv) && __riscv_xlen == 64) || defined(__s390x__))\n",
                  "#define GLMUX_C_FORWARD 1\n#else\n#define GLMUX_C_FORWARD 0\n#endif\n",
                  "#define GLMUX_C_FORWARD_ARGS 256   /* bytes of stack arguments copied */\n",
                  "#define GLMUX_HAVE_DYNAMIC_STUBS GLMUX_C_FORWARD\n"]
    lines += [f"#define GLMUX_GLX_ENTRY_COUNT {glx_count}\n",
              "#define GLMUX_HAVE_GLX_STUBS GLMUX_HAVE_DYNAMIC_STUBS\n",
              "\n#endif\n"]
    return "".join(lines)
