/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: the port-check tokenizer (src/cli/port_lex.c) on edge cases: comments, quotes,
 * raw strings, numbers, line continuations, preprocessor lines, positions, limits. Each case
 * lists the tokens expected as "K:text@line:col" (K is I, D for an identifier in a directive,
 * or H for a header name).
 */
#include <stdio.h>
#include <string.h>

#include "cli/port_lex.h"
#include "glmux_test.h"

struct collect {
    char out[4096];
    int stop_after; /* stop (return 7) after this many tokens; 0: never */
    int count;
};

static int on_token(void *ctx, const struct glmux_port_token *t)
{
    struct collect *c = ctx;
    char one[512];

    CHECK(strlen(t->text) == t->len);
    snprintf(one, sizeof(one), "%s%c:%s@%lu:%lu", c->out[0] ? " " : "",
             t->kind == GLMUX_PORT_HEADER ? 'H' : t->in_directive ? 'D' : 'I', t->text, t->line,
             t->column);
    strncat(c->out, one, sizeof(c->out) - strlen(c->out) - 1);
    c->count++;
    return c->stop_after != 0 && c->count >= c->stop_after ? 7 : 0;
}

static int failures;

static void expect_len(const char *name, const char *src, size_t len, const char *expected)
{
    struct collect c = { .out = "", .stop_after = 0, .count = 0 };
    int rc = glmux_port_lex(src, len, on_token, &c);

    if (rc != 0 || strcmp(c.out, expected) != 0) {
        fprintf(stderr, "FAIL: %s\n  got      \"%s\" (rc %d)\n  expected \"%s\"\n", name, c.out,
                rc, expected);
        failures++;
    }
}

static void expect(const char *name, const char *src, const char *expected)
{
    expect_len(name, src, strlen(src), expected);
}

int main(void)
{
    static char long_ident[400];
    struct collect c = { .out = "", .stop_after = 2, .count = 0 };

    expect("empty", "", "");
    expect_len("NULL buffer", NULL, 0, "");
    expect("comments", "a /* glXA */ b // glXB\nc", "I:a@1:1 I:b@1:14 I:c@2:1");
    expect("unterminated block comment", "x /* glXA", "I:x@1:1");
    expect("line comment continued", "// glXA \\\n glXB\nd", "I:d@3:1");
    expect("comment delimiters split", "/\\\n* glXA *\\\n/ d", "I:d@3:3");
    expect("identifier split", "  gl\\\nX_y z", "I:glX_y@1:3 I:z@2:5");
    expect("CRLF splice and lines", "a\\\r\nb\r\nc", "I:ab@1:1 I:c@3:1");
    expect("strings", "\"glXA \\\" glXB\" y \"\\\\\" z", "I:y@1:16 I:z@1:23");
    expect("unterminated string ends at newline", "\"glXA\nq", "I:q@2:1");
    expect("chars", "'a' '\\'' 'glXA' z", "I:z@1:17");
    expect("prefixes", "u8\"x\" L'y' U\"z\" u'w' v", "I:v@1:22");
    expect("raw string", "R\"d(x)\" glXA )d\" w", "I:w@1:18");
    expect("raw string over lines", "LR\"(a\nglXA\\\n)\" w", "I:w@3:4");
    expect("unterminated raw string", "R\"(glXA", "");
    expect("malformed raw delimiter", "R\"a b(\" w", "I:w@1:9");
    expect("R is an identifier", "R + LR", "I:R@1:1 I:LR@1:5");
    expect("numbers", "1'000 0x1p-3 1e+5f .5e-3 x", "I:x@1:26");
    expect("number then identifier", "12 ab", "I:ab@1:4");
    expect("include", "#include <GL/glx.h>\n# include \"a b.h\"\n#include_next <x>",
           "D:include@1:2 H:GL/glx.h@1:11 D:include@2:3 H:a b.h@2:12 D:include_next@3:2 "
           "H:x@3:16");
    expect("include macro", "#include HDR\nx", "D:include@1:2 D:HDR@1:10 I:x@2:1");
    expect("unterminated header name", "#include <a\nx", "D:include@1:2 I:x@2:1");
    expect("define", "#define SWAP(d) glXSwapBuffers(d)\nx",
           "D:define@1:2 D:SWAP@1:9 D:d@1:14 D:glXSwapBuffers@1:17 D:d@1:32 I:x@2:1");
    expect("directive continued", "#if A \\\n && B\nC", "D:if@1:2 D:A@1:5 D:B@2:5 I:C@3:1");
    expect("directive after comment", "/* c\n */ # ifdef Z\ny",
           "D:ifdef@2:7 D:Z@2:13 I:y@3:1");
    expect("hash not at line start", "x # y", "I:x@1:1 I:y@1:5");
    expect("string in directive", "#error \"glXA\" it's\nz", "D:error@1:2 D:it@1:15 I:z@2:1");
    expect("include quote is not a string", "#include \"glx.h\" glXA",
           "D:include@1:2 H:glx.h@1:11 D:glXA@1:18");
    expect("byte order mark", "\xEF\xBB\xBFglXA", "I:glXA@1:1");
    expect("dollar and UTF-8", "a$b \xC3\xA9t\xC3\xA9 c", "I:a$b@1:1 I:\xC3\xA9t\xC3\xA9@1:5 I:c@1:11");
    expect_len("NUL bytes", "a\0b", 3, "I:a@1:1 I:b@1:3");
    /* A header name with a NUL inside is not reported (it was, as "GL/glx.h"). */
    expect_len("NUL in a header name", "#include <GL/glx.h\0x>\ny", 23,
               "D:include@1:2 I:y@2:1");
    expect_len("NUL in a quoted header name", "#include \"glx.h\0\"", 17, "D:include@1:2");
    expect("backslash at end", "a \\", "I:a@1:1");
    expect("lone backslash-newline at end", "a\\\n", "I:a@1:1");

    memset(long_ident, 'g', 300);
    strcpy(long_ident + 300, " ok");
    expect("identifier too long", long_ident, "I:ok@1:302");
    memset(long_ident, 'g', 255);
    long_ident[255] = '\0';
    {
        char want[512];
        snprintf(want, sizeof(want), "I:%s@1:1", long_ident);
        expect("identifier at the limit", long_ident, want);
    }

    CHECK(glmux_port_lex("a b c", 5, on_token, &c) == 7);
    CHECK(strcmp(c.out, "I:a@1:1 I:b@1:3") == 0);
    if (failures != 0) {
        fprintf(stderr, "%d case(s) failed\n", failures);
        return 1;
    }
    printf("ok: port-check tokenizer\n");
    return 0;
}
