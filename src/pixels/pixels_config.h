/* SPDX-License-Identifier: MIT */
/*
 * glmux: the pixels vendor's FBConfigs and visuals (pixels_config.c): the server's TrueColor
 * visuals times the EGL vendor's pbuffer configs, made once per display and screen, and which
 * config a GLX 1.2 visual stands for.
 */
#ifndef GLMUX_PIXELS_CONFIG_H
#define GLMUX_PIXELS_CONFIG_H

#include "pixels/pixels.h"

/*
 * One FBConfig. Colour is always 8-bit red, green and blue (plus 8 bits of alpha or none),
 * read back as BGRA bytes; what differs is listed here. Configs live as long as their display
 * (a context and a drawable keep copies of their own).
 */
struct glmux_pixels_config {
    int id;                 /* GLX_FBCONFIG_ID, 1-based and unique in the process */
    int screen;
    VisualID visual;        /* GLX_VISUAL_ID: the X visual of its windows and pixmaps */
    int depth;              /* that visual's depth (24 or 32): a drawable of another is BadMatch */
    int alpha, depth_size, stencil;
    int samples;            /* 0, or the multisampled EGL config's samples (GLX_SAMPLES) */
    bool double_buffer;
    bool srgb;              /* GLX_FRAMEBUFFER_SRGB_CAPABLE: surfaces get EGL_GL_COLORSPACE_SRGB */
    int caveat;             /* GLX_NONE, GLX_SLOW_CONFIG or GLX_NON_CONFORMANT_CONFIG */
    int max_pbuffer_width, max_pbuffer_height, max_pbuffer_pixels;
    EGLConfig egl_config;
};

/* Whether name is one of the space-separated words of list (an extension string). */
static inline bool glmux_pixels_has_word(const char *list, const char *name)
{
    size_t len = strlen(name);

    for (const char *p = list; p != NULL && (p = strstr(p, name)) != NULL; p += len) {
        if ((p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
            return true;
    }
    return false;
}
/* The configs of (dpy, screen), made on first use; NULL with *n = 0 when there are none. */
struct glmux_pixels_config *glmux_pixels_configs(Display *dpy, int screen, int *n);
/* Whether config is one of ours. */
bool glmux_pixels_config_valid(Display *dpy, const struct glmux_pixels_config *config);
/*
 * The config a GLX 1.2 visual stands for (glXCreateContext, glXGetConfig, glXCreateGLXPixmap):
 * the one glXChooseVisual or glXGetVisualFromFBConfig returned this XVisualInfo for, else the
 * one glXChooseVisual last chose for its visual, else the visual's default (double-buffered,
 * 24-bit depth, 8-bit stencil, alpha if it has any). Any TrueColor visual of the screen with
 * the same depth and masks as one of ours stands for it. NULL when the visual is not usable.
 */
struct glmux_pixels_config *glmux_pixels_config_of_visual(Display *dpy, const XVisualInfo *vis);
/* The visual of ours that visual stands for (itself when it is none of ours). */
VisualID glmux_pixels_visual_standing_for(Display *dpy, int screen, VisualID visual);
/* The XVisualInfo of config's visual (XFree it), remembered as standing for config; chosen:
 * glXChooseVisual chose it (later lookups of the same visual by id get it too). */
XVisualInfo *glmux_pixels_visual_info(Display *dpy, struct glmux_pixels_config *c, bool chosen);
/* glXGetFBConfigAttrib / glXGetConfig: Success or GLX_BAD_ATTRIBUTE. */
int glmux_pixels_config_attrib(const struct glmux_pixels_config *c, int attrib, int *value);
/* The EGL surface attributes a surface of config c needs (its colour space), written to out
 * (room for GLMUX_PIXELS_SURFACE_ATTRIBS EGLints, not terminated); returns how many. */
#define GLMUX_PIXELS_SURFACE_ATTRIBS 2
int glmux_pixels_config_surface_attribs(const struct glmux_pixels_config *c, EGLint *out);
/* Whether a surface made for config a serves config b too (same EGL config and colour space). */
bool glmux_pixels_config_same_surface(const struct glmux_pixels_config *a,
                                      const struct glmux_pixels_config *b);

#endif /* GLMUX_PIXELS_CONFIG_H */
