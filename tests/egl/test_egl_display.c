/* SPDX-License-Identifier: MIT */
/*
 * glmux EGL tests: displays, vendor order, devices and eglGetProcAddress with two fake
 * vendors. Every display and device must reach the vendor that owns it.
 */
#define _GNU_SOURCE
#include "test_egl_fake.h"

#include <stdlib.h>
#include <string.h>

#include "glmux_constants.h"

static bool has_word(const char *list, const char *word)
{
    size_t n = strlen(word);

    for (const char *p = list; (p = strstr(p, word)) != NULL; p += n) {
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return true;
    }
    return false;
}

int mode_display(void)
{
    EGLDisplay d0 = fake_display("fake0"), d1 = fake_display("fake1");
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_ext;
    const char *ext;
    EGLint none_attribs[] = { EGL_NONE };

    CHECK(d0 != d1);
    CHECK(strcmp(fake_vendor_of(d0), "fake0") == 0);
    CHECK(strcmp(fake_vendor_of(d1), "fake1") == 0);
    /* The default display comes from the first vendor in load order. */
    CHECK(eglGetDisplay(EGL_DEFAULT_DISPLAY) == d0);
    CHECK(eglGetError() == EGL_SUCCESS);
    /* Same arguments, same handle. */
    CHECK(eglGetPlatformDisplay(FAKE_PLATFORM, "fake1", NULL) == d1);

    /* EGL_NONE is not a platform. */
    CHECK(eglGetPlatformDisplay(EGL_NONE, NULL, NULL) == EGL_NO_DISPLAY);
    CHECK(eglGetError() == EGL_BAD_PARAMETER);
    /* A native display nobody claims without an error: EGL_NO_DISPLAY with EGL_SUCCESS. */
    CHECK(eglGetPlatformDisplay(FAKE_PLATFORM, "nobody", NULL) == EGL_NO_DISPLAY);
    CHECK(eglGetError() == EGL_SUCCESS);
    /* A platform every vendor rejects: the first vendor's error. */
    CHECK(eglGetPlatformDisplay(EGL_PLATFORM_GBM_KHR, NULL, NULL) == EGL_NO_DISPLAY);
    CHECK(eglGetError() == EGL_BAD_PARAMETER);
    /* A native display of unknown kind: eglGetDisplay gives up quietly. */
    {
        static const char unknown[64] = "not a display";

        CHECK(eglGetDisplay((EGLNativeDisplayType)unknown) == EGL_NO_DISPLAY);
        CHECK(eglGetError() == EGL_SUCCESS);
        CHECK(eglGetDisplay((EGLNativeDisplayType)(uintptr_t)0x10) == EGL_NO_DISPLAY);
        CHECK(eglGetError() == EGL_SUCCESS);
    }

    get_ext = (PFNEGLGETPLATFORMDISPLAYEXTPROC)fake_proc("eglGetPlatformDisplayEXT");
    CHECK(get_ext(FAKE_PLATFORM, "fake1", none_attribs) == d1);
    /* Attributes reach the vendor; the EXT entry point converts its EGLint list. */
    {
        static const EGLAttrib index_attrib[] = { FAKE_DEVICE_INDEX, 1, EGL_NONE };
        static const EGLint index_int[] = { FAKE_DEVICE_INDEX, 1, EGL_NONE };
        EGLDisplay on_device = eglGetPlatformDisplay(FAKE_PLATFORM, "fake1", index_attrib);

        CHECK(on_device != EGL_NO_DISPLAY && on_device != d1);
        CHECK(strcmp(fake_vendor_of(on_device), "fake1") == 0);
        CHECK(get_ext(FAKE_PLATFORM, "fake1", index_int) == on_device);
    }
    /* A vendor that answers with another vendor's display has failed; the map is unchanged. */
    {
        const EGLAttrib steal[] = { FAKE_RETURN_DISPLAY, (EGLAttrib)d0, EGL_NONE };

        CHECK(eglGetPlatformDisplay(FAKE_PLATFORM, "fake1", steal) == EGL_NO_DISPLAY);
        CHECK(eglGetError() == EGL_SUCCESS);
        CHECK(strcmp(fake_vendor_of(d0), "fake0") == 0);
    }
    CHECK(get_ext(EGL_NONE, NULL, NULL) == EGL_NO_DISPLAY);
    CHECK(eglGetError() == EGL_BAD_PARAMETER);

    /* Unknown displays. */
    CHECK(!eglInitialize((EGLDisplay)&d0, NULL, NULL));
    CHECK(eglGetError() == EGL_BAD_DISPLAY);
    CHECK(eglQueryString((EGLDisplay)&d0, EGL_VENDOR) == NULL);
    CHECK(eglGetError() == EGL_BAD_DISPLAY);

    /* Client extensions: merged, filtered, plus libEGL's own and the vendors' platform ones. */
    ext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    CHECK(ext != NULL);
    printf("client extensions: %s\n", ext);
    CHECK(has_word(ext, "EGL_EXT_platform_base"));
    CHECK(has_word(ext, "EGL_EXT_device_enumeration"));
    CHECK(has_word(ext, "EGL_EXT_platform_device"));
    CHECK(has_word(ext, "EGL_KHR_debug"));
    CHECK(has_word(ext, "EGL_EXT_client_extensions"));
    CHECK(has_word(ext, "EGL_KHR_client_get_all_proc_addresses"));
    CHECK(has_word(ext, "EGL_FAKE_platform_fake0"));
    CHECK(has_word(ext, "EGL_FAKE_platform_fake1"));
    CHECK(!has_word(ext, "EGL_FAKE_client_fake0"));
    CHECK(has_word(ext, "EGL_MESA_platform_gbm"));
    CHECK(!has_word(ext, "EGL_KHR_platform_x11"));
    CHECK(eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS) == ext);
    CHECK(strcmp(eglQueryString(EGL_NO_DISPLAY, EGL_VERSION), "1.5 libglvnd") == 0);
    CHECK(eglQueryString(EGL_NO_DISPLAY, EGL_VENDOR) == NULL);
    CHECK(eglGetError() == EGL_BAD_DISPLAY);

    CHECK(eglTerminate(d0) && eglTerminate(d1));
    /* The mapping outlives eglTerminate. */
    CHECK(strcmp(fake_vendor_of(d1), "fake1") == 0);
    return 0;
}

/* order_a/90_fake0.json before order_b/10_fake1.json: directory order wins over names. */
int mode_order(void)
{
    EGLDisplay dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);

    CHECK(dpy != EGL_NO_DISPLAY);
    CHECK(strcmp(fake_vendor_of(dpy), "fake0") == 0);
    CHECK(strcmp(fake_vendor_of(fake_display("fake1")), "fake1") == 0);
    return 0;
}

/* FILENAMES lists fake1 (relative path) then fake0, and DIRS is ignored. */
int mode_filenames(void)
{
    EGLDisplay dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);

    CHECK(dpy != EGL_NO_DISPLAY);
    CHECK(strcmp(fake_vendor_of(dpy), "fake1") == 0);
    CHECK(strcmp(fake_vendor_of(fake_display("fake0")), "fake0") == 0);
    return 0;
}

/*
 * EGL_PLATFORM=0x10000 (a number): eglGetDisplay uses FAKE_PLATFORM for any handle.
 * EGL_PLATFORM=gbm (a name): any handle is passed on as a GBM device, even one whose first
 * word would never be recognised as a gbm_device.
 */
int mode_platform_env(void)
{
    const char *env = getenv("EGL_PLATFORM");
    EGLDisplay dpy;

    if (env != NULL && strcmp(env, "gbm") == 0) {
        static const struct fake_native plain = { "not a gbm_device", "fake1" };

        dpy = eglGetDisplay((EGLNativeDisplayType)&plain);
        CHECK_MSG(dpy != EGL_NO_DISPLAY, "error 0x%x", eglGetError());
        CHECK(strcmp(fake_vendor_of(dpy), "fake1") == 0);
        /* EGL_DEFAULT_DISPLAY too goes to the GBM platform, which no fake vendor serves. */
        CHECK(eglGetDisplay(EGL_DEFAULT_DISPLAY) == EGL_NO_DISPLAY);
        CHECK(eglGetError() == EGL_BAD_PARAMETER);
        return 0;
    }
    dpy = eglGetDisplay((EGLNativeDisplayType)"fake1");

    CHECK(dpy != EGL_NO_DISPLAY);
    CHECK(strcmp(fake_vendor_of(dpy), "fake1") == 0);
    return 0;
}

static int query_devices(EGLDeviceEXT *devices, EGLint max)
{
    PFNEGLQUERYDEVICESEXTPROC query = (PFNEGLQUERYDEVICESEXTPROC)fake_proc("eglQueryDevicesEXT");
    EGLint n = -1;

    CHECK(query(max, devices, &n));
    return n;
}

int mode_device(void)
{
    PFNEGLQUERYDEVICESEXTPROC query = (PFNEGLQUERYDEVICESEXTPROC)fake_proc("eglQueryDevicesEXT");
    PFN_FAKE_DEVICE device_vendor = (PFN_FAKE_DEVICE)fake_proc("eglFakeDeviceFAKE");
    EGLDeviceEXT devices[8], one;
    EGLint n = -1;

    CHECK(query(0, NULL, &n) && n == 4);
    CHECK(query_devices(devices, 8) == 4);
    for (int i = 0; i < 4; i++) {
        EGLDisplay dpy;

        for (int j = 0; j < i; j++)
            CHECK(devices[i] != devices[j]);
        /* Vendor order: fake0's two devices, then fake1's. */
        CHECK(strcmp(device_vendor(devices[i]), i < 2 ? "fake0" : "fake1") == 0);
        dpy = eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[i], NULL);
        CHECK(dpy != EGL_NO_DISPLAY);
        CHECK(strcmp(fake_vendor_of(dpy), i < 2 ? "fake0" : "fake1") == 0);
    }
    /* A short array gets the first devices. */
    CHECK(query_devices(&one, 1) == 1 && one == devices[0]);
    /* Bad arguments. */
    CHECK(!query(0, devices, &n));
    CHECK(eglGetError() == EGL_BAD_PARAMETER);
    CHECK(!query(8, devices, NULL));
    CHECK(eglGetError() == EGL_BAD_PARAMETER);
    /* A device handle libEGL never saw. */
    CHECK(eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, &n, NULL) == EGL_NO_DISPLAY);
    CHECK(eglGetError() == EGL_BAD_PARAMETER);
    CHECK(device_vendor((EGLDeviceEXT)&n) == NULL);
    CHECK(eglGetError() == EGL_BAD_DEVICE_EXT);
    /* eglGetDisplay recognises a known device handle. */
    CHECK(strcmp(fake_vendor_of(eglGetDisplay((EGLNativeDisplayType)devices[3])), "fake1") == 0);
    return 0;
}

/* A third device of fake1, learned three ways after the first enumeration. */
int mode_device_later(void)
{
    PFN_FAKE_DEVICE device_vendor = (PFN_FAKE_DEVICE)fake_proc("eglFakeDeviceFAKE");
    PFN_FAKE_RETURN_DEVICE return_device =
        (PFN_FAKE_RETURN_DEVICE)fake_proc("eglFakeReturnDeviceFAKE");
    PFNEGLQUERYDISPLAYATTRIBEXTPROC query_attrib =
        (PFNEGLQUERYDISPLAYATTRIBEXTPROC)fake_proc("eglQueryDisplayAttribEXT");
    PFN_FAKE_SET_DEVICE_COUNT set_count;
    EGLDeviceEXT devices[8], dev;
    EGLDisplay d1 = fake_display("fake1");
    EGLAttrib value = 0;

    CHECK(query_devices(devices, 8) == 4);
    set_count = (PFN_FAKE_SET_DEVICE_COUNT)fake_symbol("fake1", "fake_set_device_count");
    set_count(3);

    /* 1. A vendor stub that returns a device reports it with setVendorForDevice. */
    dev = return_device(d1, 2);
    CHECK(dev != EGL_NO_DEVICE_EXT);
    CHECK(device_vendor(dev) != NULL && strcmp(device_vendor(dev), "fake1") == 0);

    /*
     * 2. eglQueryDisplayAttribEXT(EGL_DEVICE_EXT) records the display's device: fake0's
     * default display sits on its third device, which enumeration does not list.
     */
    {
        EGLDisplay d0 = fake_display("fake0");

        CHECK(query_attrib(d0, EGL_DEVICE_EXT, &value) && value != 0);
        for (int i = 0; i < 4; i++)
            CHECK(devices[i] != (EGLDeviceEXT)value);
        CHECK(strcmp(device_vendor((EGLDeviceEXT)value), "fake0") == 0);
        CHECK(!query_attrib(d0, EGL_NONE, &value));
        CHECK(eglGetError() == EGL_BAD_ATTRIBUTE);
        CHECK(!query_attrib(EGL_NO_DISPLAY, EGL_DEVICE_EXT, &value));
        CHECK(eglGetError() == EGL_BAD_DISPLAY);
        /* The KHR and NV names reach the same vendor function (it has only the EXT one). */
        for (int i = 0; i < 2; i++) {
            PFNEGLQUERYDISPLAYATTRIBEXTPROC other = (PFNEGLQUERYDISPLAYATTRIBEXTPROC)
                fake_proc(i == 0 ? "eglQueryDisplayAttribKHR" : "eglQueryDisplayAttribNV");
            EGLAttrib same = 0;

            CHECK(other(d0, EGL_DEVICE_EXT, &same) && same == value);
            CHECK(!other(d0, EGL_DEVICE_EXT, NULL));
            CHECK(eglGetError() == EGL_BAD_PARAMETER);
            CHECK(!other(d0, EGL_NONE, &same));
            CHECK(eglGetError() == EGL_BAD_ATTRIBUTE);
        }
    }

    /* 3. eglQueryDevicesEXT finds it and dispatches on it. */
    CHECK(query_devices(devices, 8) == 5);
    CHECK(devices[4] == dev);
    CHECK(eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[4], NULL) != EGL_NO_DISPLAY);
    return 0;
}

int mode_procaddr(void)
{
    PFN_FAKE_DISPLAY display_vendor;
    EGLDisplay d0 = fake_display("fake0"), d1 = fake_display("fake1");
    PFN_FAKE_DISPATCH_INDEX index0 =
        (PFN_FAKE_DISPATCH_INDEX)fake_symbol("fake0", "fake_dispatch_index");
    PFN_FAKE_DISPATCH_INDEX index1 =
        (PFN_FAKE_DISPATCH_INDEX)fake_symbol("fake1", "fake_dispatch_index");
    PFN_FAKE_COUNTER count1 = (PFN_FAKE_COUNTER)fake_symbol("fake1", "fake_counter");

    /* At load every vendor was told the indices of libEGL's 54 own functions, and nothing
     * else yet. */
    CHECK_MSG(count1("setDispatchIndex") == 54, "%d", count1("setDispatchIndex"));
    CHECK(index0("eglFakeDisplayFAKE") == -1 && index1("eglFakeDisplayFAKE") == -1);
    /* fake0 supplies the stub; the new index is broadcast to every vendor, fake1 included. */
    display_vendor = (PFN_FAKE_DISPLAY)fake_proc("eglFakeDisplayFAKE");
    CHECK(index0("eglFakeDisplayFAKE") >= 54);
    CHECK(index1("eglFakeDisplayFAKE") == index0("eglFakeDisplayFAKE"));
    CHECK(count1("setDispatchIndex") == 55);
    /* A second lookup is cached: no new index. */
    CHECK((void *)eglGetProcAddress("eglFakeDisplayFAKE") == (void *)display_vendor);
    CHECK(count1("setDispatchIndex") == 55);
    CHECK(fake_proc("eglFakeDeviceFAKE") != NULL);
    CHECK(index1("eglFakeDeviceFAKE") == index0("eglFakeDeviceFAKE"));
    CHECK(index0("eglFakeDeviceFAKE") != index0("eglFakeDisplayFAKE"));

    CHECK(eglGetProcAddress("eglNoSuchFunctionFAKE") == NULL);
    CHECK(eglGetProcAddress("notGLorEGL") == NULL);
    CHECK(eglGetProcAddress("") == NULL);
    /* libEGL's own functions, exported or not. */
    CHECK((void *)eglGetProcAddress("eglGetDisplay") == (void *)eglGetDisplay);
    CHECK((void *)eglGetProcAddress("eglMakeCurrent") == (void *)eglMakeCurrent);
    CHECK(eglGetProcAddress("eglQueryDisplayAttribKHR") != NULL);
    CHECK(eglGetProcAddress("eglDebugMessageControlKHR") != NULL);
    CHECK(eglGetProcAddress("eglCreatePlatformWindowSurfaceEXT") != NULL);
    /* Vendor stubs: one pointer, dispatched by display to the right vendor. */
    CHECK((void *)eglGetProcAddress("eglFakeDisplayFAKE") == (void *)display_vendor);
    CHECK(strcmp(display_vendor(d0), "fake0") == 0);
    CHECK(eglGetError() == EGL_SUCCESS);
    CHECK(strcmp(display_vendor(d1), "fake1") == 0);
    CHECK(display_vendor((EGLDisplay)&d0) == NULL);
    CHECK(eglGetError() == EGL_BAD_DISPLAY);
    /* fetchDispatchEntry: libEGL's own index 0 is eglBindAPI, 3 eglClientWaitSync (the fake
     * has no such function); indices never handed out give NULL. */
    {
        void *(*fetch)(int) = (void *(*)(int))fake_symbol("fake0", "fake_fetch");

        CHECK(fetch(0) != NULL && fetch(3) == NULL);
        CHECK(fetch(-1) == NULL && fetch(1 << 30) == NULL && fetch(54 + 1000) == NULL);
        CHECK(fetch(32) != NULL);   /* eglInitialize */
    }
    /* Any GL name gives a dispatch stub, known or not (unknown ones need dynamic stubs: every
     * assembly build has them, pure C where it can forward arguments; elsewhere NULL, as in
     * libglvnd's pure-C builds). */
    CHECK(eglGetProcAddress("glClear") != NULL);
#if GLMUX_HAVE_DYNAMIC_STUBS
    CHECK(eglGetProcAddress("glNoSuchFunctionFAKE") != NULL);
#else
    CHECK(eglGetProcAddress("glNoSuchFunctionFAKE") == NULL);
#endif
    CHECK(eglGetProcAddress("glNoSuchFunctionFAKE") == eglGetProcAddress("glNoSuchFunctionFAKE"));
    return 0;
}

/* Stand-ins for libgbm's and libwayland's symbols, found by dladdr (ENABLE_EXPORTS). */
__attribute__((visibility("default"))) void gbm_create_device(void);
__attribute__((visibility("default"))) extern const int wl_display_interface;
__attribute__((visibility("default"))) void gbm_create_device(void)
{
}
__attribute__((visibility("default"))) const int wl_display_interface = 1;

/* eglGetDisplay works out the platform: vendor hook, device, GBM, Wayland. */
int mode_platform_detect(void)
{
    static const struct fake_native gbm = { (const void *)gbm_create_device, "fake1" };
    static const struct fake_native wl = { &wl_display_interface, "fake0" };
    static const struct fake_native neither = { &gbm, "fake0" };
    const char *token;
    EGLDeviceEXT devices[4];

    fake_display("fake0");   /* loads the vendors so that their symbols can be found */
    token = fake_symbol("fake1", "fake_find_token");
    CHECK(strcmp(fake_vendor_of(eglGetDisplay((EGLNativeDisplayType)token)), "fake1") == 0);
    CHECK(strcmp(fake_vendor_of(eglGetDisplay((EGLNativeDisplayType)&gbm)), "fake1") == 0);
    CHECK(strcmp(fake_vendor_of(eglGetDisplay((EGLNativeDisplayType)&wl)), "fake0") == 0);
    CHECK(eglGetDisplay((EGLNativeDisplayType)&neither) == EGL_NO_DISPLAY);
    CHECK(eglGetError() == EGL_SUCCESS);
    /* Unmapped and misaligned pointers are never read. */
    CHECK(eglGetDisplay((EGLNativeDisplayType)(uintptr_t)0x1000) == EGL_NO_DISPLAY);
    CHECK(eglGetDisplay((EGLNativeDisplayType)((uintptr_t)&gbm + 1)) == EGL_NO_DISPLAY);
    CHECK(query_devices(devices, 4) == 4);
    CHECK(strcmp(fake_vendor_of(eglGetDisplay((EGLNativeDisplayType)devices[1])), "fake0") == 0);
    return 0;
}
