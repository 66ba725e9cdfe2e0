/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: EGL_KHR_debug, implemented in libEGL and forwarded to vendors, and the one
 * path every error libEGL raises itself goes through (glmux_egl_report and its _thread and
 * _display forms): it records the thread's error, calls the application's callback with the
 * command name, the thread label and the object label (none, the thread's, or the display's,
 * as libglvnd passes them) when that message type is enabled, and logs the message under
 * GLMUX_DEBUG=info.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "debug.h"
#include "discovery.h"
#include "maps.h"
#include "state.h"
#include "util/lifecycle.h"
#include "util/lock.h"
#include "vendor.h"
#include "util/log.h"

#define TYPE_BIT(type) (1u << ((type) - EGL_DEBUG_MSG_CRITICAL_KHR))
#define DEFAULT_MASK (TYPE_BIT(EGL_DEBUG_MSG_CRITICAL_KHR) | TYPE_BIT(EGL_DEBUG_MSG_ERROR_KHR))

static pthread_mutex_t debug_lock = PTHREAD_MUTEX_INITIALIZER;
static EGLDEBUGPROCKHR debug_callback;
static unsigned debug_mask = DEFAULT_MASK;

static void debug_fork(enum glmux_fork_step step)
{
    glmux_fork_mutex(&debug_lock, step);
}


static bool is_message_type(EGLAttrib type)
{
    return type >= EGL_DEBUG_MSG_CRITICAL_KHR && type <= EGL_DEBUG_MSG_INFO_KHR;
}

/*
 * Display labels set through eglLabelObjectKHR(dpy, EGL_OBJECT_DISPLAY_KHR, ...), kept here so
 * that errors libEGL raises about a display carry its label. Displays live until unload, and
 * an application labels a handful, so a short list does.
 */
struct display_label {
    EGLDisplay dpy;
    EGLLabelKHR label;
    struct display_label *next;
};
static struct display_label *display_labels;

static EGLLabelKHR display_label(EGLDisplay dpy)
{
    EGLLabelKHR label = NULL;

    pthread_mutex_lock(&debug_lock);
    for (struct display_label *l = display_labels; l != NULL; l = l->next) {
        if (l->dpy == dpy)
            label = l->label;
    }
    pthread_mutex_unlock(&debug_lock);
    return label;
}

static void set_display_label(EGLDisplay dpy, EGLLabelKHR label)
{
    struct display_label *l;

    pthread_mutex_lock(&debug_lock);
    for (l = display_labels; l != NULL && l->dpy != dpy; l = l->next)
        ;
    if (l == NULL && (l = calloc(1, sizeof(*l))) != NULL) {
        l->dpy = dpy;
        l->next = display_labels;
        display_labels = l;
    }
    if (l != NULL)
        l->label = label;
    pthread_mutex_unlock(&debug_lock);
}

static void debug_teardown(void)
{
    while (display_labels != NULL) {
        struct display_label *next = display_labels->next;
        free(display_labels);
        display_labels = next;
    }
}

static EGLLabelKHR thread_label(void)
{
    struct glmux_egl_tls *t = glmux_egl_tls_peek();

    return t ? t->label : NULL;
}

static void vreport(EGLLabelKHR object_label, EGLint error, const char *command, EGLint type,
                    const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));

static void vreport(EGLLabelKHR object_label, EGLint error, const char *command, EGLint type,
                    const char *fmt, va_list ap)
{
    EGLDEBUGPROCKHR callback;
    unsigned mask;
    char message[256];

    if (type == EGL_DEBUG_MSG_CRITICAL_KHR || type == EGL_DEBUG_MSG_ERROR_KHR)
        glmux_egl_set_error(error);
    vsnprintf(message, sizeof(message), fmt, ap);
    glmux_log(GLMUX_LOG_INFO, "%s: %s (EGL error 0x%04x)", command, message, (unsigned)error);

    pthread_mutex_lock(&debug_lock);
    callback = debug_callback;
    mask = debug_mask;
    pthread_mutex_unlock(&debug_lock);
    if (callback != NULL && is_message_type(type) && (mask & TYPE_BIT(type)) != 0)
        callback(error, command, type, thread_label(), object_label, message);
}

void glmux_egl_report(EGLint error, const char *command, EGLint type, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vreport(NULL, error, command, type, fmt, ap);
    va_end(ap);
}

void glmux_egl_report_thread(EGLint error, const char *command, EGLint type, const char *fmt,
                             ...)
{
    va_list ap;

    va_start(ap, fmt);
    vreport(thread_label(), error, command, type, fmt, ap);
    va_end(ap);
}

void glmux_egl_report_display(EGLDisplay dpy, EGLint error, const char *command, EGLint type,
                              const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vreport(display_label(dpy), error, command, type, fmt, ap);
    va_end(ap);
}

EGLint glmux_egl_DebugMessageControlKHR(EGLDEBUGPROCKHR callback, const EGLAttrib *attribs)
{
    unsigned mask;

    glmux_egl_entry();
    if (attribs != NULL) {
        for (const EGLAttrib *a = attribs; a[0] != EGL_NONE; a += 2) {
            if (!is_message_type(a[0])) {
                glmux_egl_error(EGL_BAD_ATTRIBUTE, "eglDebugMessageControlKHR",
                                "invalid attribute 0x%04lx", (unsigned long)a[0]);
                return EGL_BAD_ATTRIBUTE;
            }
        }
    }
    pthread_mutex_lock(&debug_lock);
    mask = debug_mask;
    if (callback == NULL) {
        mask = DEFAULT_MASK;
    } else if (attribs != NULL) {
        for (const EGLAttrib *a = attribs; a[0] != EGL_NONE; a += 2) {
            if (a[1])
                mask |= TYPE_BIT(a[0]);
            else
                mask &= ~TYPE_BIT(a[0]);
        }
    }
    debug_callback = callback;
    debug_mask = mask;
    pthread_mutex_unlock(&debug_lock);

    for (glmux_egl_vendor *v = glmux_egl_vendors(); v != NULL; v = v->next) {
        PFNEGLDEBUGMESSAGECONTROLKHRPROC fn =
            (PFNEGLDEBUGMESSAGECONTROLKHRPROC)v->fn[GLMUX_EGL_IDX_DebugMessageControlKHR];
        EGLint result = fn ? fn(callback, attribs) : EGL_BAD_ALLOC;

        if (result != EGL_SUCCESS)
            glmux_egl_report(EGL_SUCCESS, "eglDebugMessageControlKHR", EGL_DEBUG_MSG_WARN_KHR,
                             "vendor %s %s", v->library,
                             fn ? "failed to set the callback" : "does not support EGL_KHR_debug");
    }
    return EGL_SUCCESS;
}

EGLBoolean glmux_egl_QueryDebugKHR(EGLint attribute, EGLAttrib *value)
{
    glmux_egl_entry();
    if (value == NULL) {
        glmux_egl_error(EGL_BAD_PARAMETER, "eglQueryDebugKHR", "value is NULL");
        return EGL_FALSE;
    }
    pthread_mutex_lock(&debug_lock);
    if (is_message_type(attribute))
        *value = (debug_mask & TYPE_BIT(attribute)) ? EGL_TRUE : EGL_FALSE;
    else if (attribute == EGL_DEBUG_CALLBACK_KHR)
        *value = (EGLAttrib)debug_callback;
    pthread_mutex_unlock(&debug_lock);
    if (!is_message_type(attribute) && attribute != EGL_DEBUG_CALLBACK_KHR) {
        glmux_egl_error(EGL_BAD_ATTRIBUTE, "eglQueryDebugKHR", "invalid attribute 0x%04x",
                        (unsigned)attribute);
        return EGL_FALSE;
    }
    return EGL_TRUE;
}

EGLint glmux_egl_LabelObjectKHR(EGLDisplay dpy, EGLenum type, EGLObjectKHR obj,
                                EGLLabelKHR label)
{
    PFNEGLLABELOBJECTKHRPROC fn;
    glmux_egl_vendor *vendor;

    glmux_egl_entry();
    if (type == EGL_OBJECT_THREAD_KHR) {
        struct glmux_egl_tls *t = glmux_egl_tls();

        if (t == NULL) {
            glmux_egl_report(EGL_BAD_ALLOC, "eglLabelObjectKHR", EGL_DEBUG_MSG_CRITICAL_KHR,
                             "out of memory");
            return EGL_BAD_ALLOC;
        }
        t->label = label;
        for (glmux_egl_vendor *v = glmux_egl_vendors(); v != NULL; v = v->next) {
            fn = (PFNEGLLABELOBJECTKHRPROC)v->fn[GLMUX_EGL_IDX_LabelObjectKHR];
            if (fn != NULL && fn(EGL_NO_DISPLAY, type, NULL, label) != EGL_SUCCESS)
                glmux_egl_report(EGL_SUCCESS, "eglLabelObjectKHR", EGL_DEBUG_MSG_WARN_KHR,
                                 "vendor %s failed to set the thread label", v->library);
        }
        return EGL_SUCCESS;
    }
    vendor = glmux_egl_display_vendor(dpy);
    if (vendor == NULL) {
        glmux_egl_error(EGL_BAD_DISPLAY, "eglLabelObjectKHR", "invalid display %p", dpy);
        return EGL_BAD_DISPLAY;
    }
    if (type == EGL_OBJECT_DISPLAY_KHR && obj != (EGLObjectKHR)dpy) {
        glmux_egl_error(EGL_BAD_PARAMETER, "eglLabelObjectKHR",
                        "EGL_OBJECT_DISPLAY_KHR needs object == display");
        return EGL_BAD_PARAMETER;
    }
    fn = (PFNEGLLABELOBJECTKHRPROC)vendor->fn[GLMUX_EGL_IDX_LabelObjectKHR];
    if (fn == NULL) {
        glmux_egl_error(EGL_BAD_PARAMETER, "eglLabelObjectKHR",
                        "the display's vendor does not support EGL_KHR_debug");
        return EGL_BAD_PARAMETER;
    }
    glmux_egl_set_last_vendor(vendor);
    {
        EGLint result = fn(dpy, type, obj, label);
        if (result == EGL_SUCCESS && type == EGL_OBJECT_DISPLAY_KHR)
            set_display_label(dpy, label);
        return result;
    }
}

GLMUX_LIFECYCLE_STEP(egl_debug, 30, .fork = debug_fork, .teardown = debug_teardown);
