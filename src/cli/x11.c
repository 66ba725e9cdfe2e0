/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: the X display `glmux explain` asks about (the screen count, GLX, the kind of
 * connection, the vendors the server names for a screen). libX11 (and, for the vendor names,
 * libX11-xcb, libxcb and libxcb-glx) are loaded with dlopen on first use and stay loaded for the
 * rest of the run, so the tool does not depend on them; DISPLAY is read through the environment
 * helper. glmux_cli_x11_open hands out one connection per run, closed at exit.
 */
#define _GNU_SOURCE
#include "cli.h"

#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/env.h"

static void *libx11;
static void *shared;    /* the one connection of the run */

void *glmux_cli_x11_sym(const char *name)
{
    return libx11 != NULL ? dlsym(libx11, name) : NULL;
}

static void close_shared(void)
{
    typedef int (*close_fn)(void *);
    close_fn xclose = (close_fn)glmux_cli_x11_sym("XCloseDisplay");

    if (shared != NULL && xclose != NULL)
        xclose(shared);
    shared = NULL;
}

void *glmux_cli_x11_open(void)
{
    typedef void *(*open_fn)(const char *);
    const char *display = glmux_env_get("DISPLAY");
    open_fn xopen;

    if (shared != NULL)
        return shared;
    if (display == NULL || *display == '\0')
        return NULL;
    if (libx11 == NULL)
        libx11 = dlopen("libX11.so.6", RTLD_LAZY | RTLD_LOCAL);
    xopen = (open_fn)glmux_cli_x11_sym("XOpenDisplay");
    /* The name as read here: XOpenDisplay(NULL) would read DISPLAY itself, even when setuid.
     * One connection serves the whole run: an X server that resets when its last client
     * leaves would refuse a second one opened right after the first closed. */
    shared = xopen != NULL ? xopen(display) : NULL;
    if (shared != NULL)
        atexit(close_shared);
    return shared;
}

void glmux_cli_x11_close(void *dpy)
{
    (void)dpy;   /* the shared connection is closed at exit */
}

/* libxcb-glx's QueryServerString, declared here by its ABI (the tool needs no GLX headers). */
struct glx_cookie {
    unsigned int sequence;
};

struct glx_fns {
    void *(*get_connection)(void *dpy);
    const struct { uint8_t response_type, pad0; uint16_t sequence; uint32_t length;
                   uint8_t present, major_opcode, first_event, first_error; } *(*extension)(
        void *c, void *ext);
    void *glx_id;
    struct glx_cookie (*query)(void *c, uint32_t screen, uint32_t name);
    void *(*reply)(void *c, struct glx_cookie cookie, void **error);
    char *(*string)(const void *reply);
    int (*length)(const void *reply);
};

static bool load_glx(struct glx_fns *f)
{
    void *x11xcb = dlopen("libX11-xcb.so.1", RTLD_LAZY | RTLD_LOCAL);
    void *xcb = dlopen("libxcb.so.1", RTLD_LAZY | RTLD_LOCAL);
    void *glx = dlopen("libxcb-glx.so.0", RTLD_LAZY | RTLD_LOCAL);

    if (x11xcb == NULL || xcb == NULL || glx == NULL)
        return false;
    *(void **)&f->get_connection = dlsym(x11xcb, "XGetXCBConnection");
    *(void **)&f->extension = dlsym(xcb, "xcb_get_extension_data");
    f->glx_id = dlsym(glx, "xcb_glx_id");
    *(void **)&f->query = dlsym(glx, "xcb_glx_query_server_string");
    *(void **)&f->reply = dlsym(glx, "xcb_glx_query_server_string_reply");
    *(void **)&f->string = dlsym(glx, "xcb_glx_query_server_string_string");
    *(void **)&f->length = dlsym(glx, "xcb_glx_query_server_string_string_length");
    return f->get_connection && f->extension && f->glx_id && f->query && f->reply &&
           f->string && f->length;
}

/* One server string of a screen into buf ("" when the server does not answer). */
static void server_string(const struct glx_fns *f, void *c, int screen, uint32_t name, char *buf,
                          size_t size)
{
    void *reply = f->reply(c, f->query(c, (uint32_t)screen, name), NULL);
    int len = reply != NULL ? f->length(reply) : 0;

    if (len < 0)
        len = 0;
    if ((size_t)len >= size)
        len = (int)size - 1;
    if (len > 0)
        memcpy(buf, f->string(reply), (size_t)len);
    buf[len] = '\0';
    free(reply);
}

static bool has_word(const char *list, const char *word)
{
    size_t n = strlen(word);

    for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return true;
    return false;
}

const char *glmux_cli_x11_glx_vendors(void *dpy, int screens, int screen, char *names,
                                      size_t size, bool *asked)
{
    static struct glx_fns f;
    static bool loaded;
    char ext[4096];
    void *c;

    names[0] = '\0';
    *asked = false;
    if (!loaded && !(loaded = load_glx(&f)))
        return "libxcb-glx is missing: the server's vendor names cannot be read";
    c = f.get_connection(dpy);
    if (c == NULL || f.extension(c, f.glx_id) == NULL || !f.extension(c, f.glx_id)->present)
        return "the X server has no GLX extension";
    /* libGLX asks for the names only when every screen has GLX_EXT_libglvnd. */
    for (int s = 0; s < screens; s++) {
        server_string(&f, c, s, 3 /* GLX_EXTENSIONS */, ext, sizeof(ext));
        if (!has_word(ext, "GLX_EXT_libglvnd"))
            return "the X server lacks GLX_EXT_libglvnd on some screen, so it names no vendor";
    }
    *asked = true;
    server_string(&f, c, screen, 0x20F6 /* GLX_VENDOR_NAMES_EXT */, names, size);
    return names[0] != '\0' ? NULL : "the X server names no vendor";
}
