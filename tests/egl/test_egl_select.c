/* SPDX-License-Identifier: MIT */
/*
 * glmux EGL tests: the program test_egl_select.py runs under each umockdev test bed. It asks for
 * the default display, as an application that never heard of GPUs does, and prints which vendor
 * serves it ("vendor NAME") and the vendors of the device list in order ("devices NAME ...");
 * the fake vendors themselves record what they saw (FAKE_EGL_RECORD).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "egl_fake.h"
#include "glmux_test.h"

int main(void)
{
    PFNEGLQUERYDEVICESEXTPROC query_devices =
        (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    EGLDeviceEXT devices[16];
    EGLDisplay dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    EGLint n = 0;

    if (dpy == EGL_NO_DISPLAY) {
        printf("vendor (none) error 0x%x\n", eglGetError());
    } else {
        CHECK(eglInitialize(dpy, NULL, NULL));
        printf("vendor %s\n", eglQueryString(dpy, EGL_VENDOR));
        CHECK(eglTerminate(dpy));
    }
    printf("devices");
    if (query_devices != NULL && query_devices(16, devices, &n)) {
        for (EGLint i = 0; i < n; i++) {
            EGLDisplay d = eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[i], NULL);

            if (d != EGL_NO_DISPLAY && eglInitialize(d, NULL, NULL)) {
                printf(" %s", eglQueryString(d, EGL_VENDOR));
                eglTerminate(d);
            }
        }
    }
    printf("\n");
    glmux_test_require_ours("libEGL.so.1");
    return 0;
}
