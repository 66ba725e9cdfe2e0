/* SPDX-License-Identifier: MIT */
/*
 * glmux EGL tests: real rendering with Debian's Mesa (libEGL_mesa.so.0, llvmpipe) through
 * our libEGL.so.1 and one of our GL libraries, chosen at build time: desktop GL through
 * libOpenGL.so.0, GLES 2 and 3 through libGLESv2.so.2, GLES 1 through libGLESv1_CM.so.1.
 * It clears, draws a triangle under a scissor box, reads the pixels back and checks them,
 * then proves which libraries were loaded.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "egl_render.h"
#include "glmux_test.h"

#if defined(GLMUX_TEST_API_gl)
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#define GL_LIB "libOpenGL.so.0"
#elif defined(GLMUX_TEST_API_gles1)
#include <GLES/gl.h>
#define GL_LIB "libGLESv1_CM.so.1"
#else
#include <GLES2/gl2.h>
#define GL_LIB "libGLESv2.so.2"
#endif

#define W 64
#define H 64

#if !defined(GLMUX_TEST_API_gles1)
static GLuint compile(GLenum type, const char *src)
{
    GLuint s = glCreateShader(type);
    GLint ok = 0;
    char log[512] = "";

    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    glGetShaderInfoLog(s, sizeof(log), NULL, log);
    CHECK_MSG(ok, "shader: %s", log);
    return s;
}

/* A triangle covering the viewport, blue, through the programmable pipeline. */
static void draw_triangle(int es_version)
{
    static const float verts[] = { -1, -1, 3, -1, -1, 3 };
    const char *vs, *fs;
    GLuint prog;
    GLint ok = 0;

    if (es_version == 3) {
        vs = "#version 300 es\nin vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
        fs = "#version 300 es\nprecision mediump float;\nout vec4 color;\n"
             "void main() { color = vec4(0.0, 0.0, 1.0, 1.0); }\n";
    } else if (es_version == 2) {
        vs = "attribute vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
        fs = "precision mediump float;\nvoid main() { gl_FragColor = vec4(0.0, 0.0, 1.0, 1.0); }\n";
    } else {
        vs = "#version 110\nattribute vec2 pos;\n"
             "void main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
        fs = "#version 110\nvoid main() { gl_FragColor = vec4(0.0, 0.0, 1.0, 1.0); }\n";
    }
    prog = glCreateProgram();
    glAttachShader(prog, compile(GL_VERTEX_SHADER, vs));
    glAttachShader(prog, compile(GL_FRAGMENT_SHADER, fs));
    glBindAttribLocation(prog, 0, "pos");
    glLinkProgram(prog);
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    CHECK(ok);
    glUseProgram(prog);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, verts);
    glEnableVertexAttribArray(0);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    CHECK(glGetError() == GL_NO_ERROR);
}
#else
/* The same triangle through the fixed-function pipeline. */
static void draw_triangle(int es_version)
{
    static const float verts[] = { -1, -1, 3, -1, -1, 3 };

    (void)es_version;
    glMatrixMode(GL_PROJECTION);
    glLoadIdentity();
    glMatrixMode(GL_MODELVIEW);
    glLoadIdentity();
    glColor4f(0.0f, 0.0f, 1.0f, 1.0f);
    glEnableClientState(GL_VERTEX_ARRAY);
    glVertexPointer(2, GL_FLOAT, 0, verts);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    CHECK(glGetError() == GL_NO_ERROR);
}
#endif

int main(int argc, char **argv)
{
    struct egl_render r;
    EGLenum api = EGL_OPENGL_ES_API;
    int es = 0;
    EGLDisplay dpy = EGL_NO_DISPLAY;
    unsigned char px[4];
    char why[256];
    const char *version, *renderer, *vendor;

    CHECK_MSG(argc == 2, "usage: egl_mesa gl|gles1|gles2|gles3");
    if (access("/usr/share/glvnd/egl_vendor.d/50_mesa.json", R_OK) != 0)
        SKIP("Debian's Mesa EGL vendor is not installed (apt-get install libegl-mesa0)");
    if (strcmp(argv[1], "gl") == 0)
        api = EGL_OPENGL_API;
    else
        es = argv[1][4] - '0';
    /* GLES 2 goes through eglGetDisplay: Mesa reads EGL_PLATFORM=surfaceless itself. */
    if (es == 2)
        dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    CHECK_MSG(egl_render_open(&r, dpy, api, es, W, H, why, sizeof(why)), "%s", why);

    vendor = eglQueryString(r.dpy, EGL_VENDOR);
    version = (const char *)glGetString(GL_VERSION);
    renderer = (const char *)glGetString(GL_RENDERER);
    CHECK(vendor != NULL && version != NULL && renderer != NULL);
    printf("EGL vendor: %s\nGL_VERSION: %s\nGL_RENDERER: %s\n", vendor, version, renderer);
    if (es >= 2)
        CHECK_MSG(strncmp(version, es == 3 ? "OpenGL ES 3" : "OpenGL ES", es == 3 ? 11 : 9) == 0,
                  "%s", version);
    if (es == 1)
        CHECK_MSG(strstr(version, "OpenGL ES-CM 1") != NULL || strstr(version, "OpenGL ES 1") !=
                  NULL, "%s", version);

    /* Red background, green scissor box, then a blue triangle inside a smaller box. */
    egl_render_clear_frame(&r, 8, 8, 24, 24);
    egl_render_pixel(2, 2, px);
    CHECK_MSG(egl_render_pixel_is(px, 255, 0, 0, 255), "(2,2) = %d,%d,%d,%d", px[0], px[1],
              px[2], px[3]);
    egl_render_pixel(20, 20, px);
    CHECK_MSG(egl_render_pixel_is(px, 0, 255, 0, 255), "(20,20) = %d,%d,%d,%d", px[0], px[1],
              px[2], px[3]);
    glScissor(40, 40, 16, 16);
    draw_triangle(api == EGL_OPENGL_API ? 0 : es);
    egl_render_pixel(48, 48, px);
    CHECK_MSG(egl_render_pixel_is(px, 0, 0, 255, 255), "(48,48) = %d,%d,%d,%d", px[0], px[1],
              px[2], px[3]);
    egl_render_pixel(20, 20, px);
    CHECK(egl_render_pixel_is(px, 0, 255, 0, 255));
    egl_render_pixel(60, 2, px);
    CHECK(egl_render_pixel_is(px, 255, 0, 0, 255));
    printf("pixels check out: red background, green box, blue triangle\n");

    glmux_test_require_ours("libEGL.so.1");
    glmux_test_require_ours("libGLdispatch.so.0");
    glmux_test_require_ours(GL_LIB);
    CHECK_MSG(glmux_test_loaded_path("libEGL_mesa.so.0") != NULL, "Mesa's vendor not loaded");
    egl_render_close(&r);
    return 0;
}
