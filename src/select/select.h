/* SPDX-License-Identifier: MIT */
/*
 * glmux: the vendor selector, a static library (glmux_select) linked into libEGL, libGLX and the
 * glmux tool. It finds vendors (the glmux vendor directory and libglvnd's EGL JSON locations),
 * enumerates GPUs through libdrm and libudev without opening any device node (sysfs alone when
 * libudev is missing), reads every GPU variable once (__NV_PRIME_RENDER_OFFLOAD, DRI_PRIME,
 * GLMUX_GPU, in that precedence, and libglvnd's vendor overrides) and decides, each decision in
 * one function that libEGL, libGLX and `glmux explain` all call: the EGL vendor order of the
 * process and of each display, the GLX vendor of a screen, and the variables `glmux run` gives
 * a new process. It never writes the environment: a vendor renders on a GPU other than the
 * display's only when its own variable already says so (DRI_PRIME for Mesa-style vendors,
 * __NV_PRIME_RENDER_OFFLOAD for NVIDIA's), so the selector puts first the vendor that will land
 * where the user asked, and warns once when none can (docs/hybrid-gpus.md, "What a library can
 * tell a vendor").
 *
 * How libEGL and libGLX call it (docs/vendors.md §7 says the same):
 *
 *   1. Once per process, in the library's one-time vendor initialisation, glmux_select_new(NULL).
 *      This reads the environment only. Keep the object for the life of the process.
 *   2. libEGL: glmux_vendor_list_discover(), then glmux_select_egl_plan() for the order in which
 *      the vendors are loaded; for each display, glmux_select_egl_display_order().
 *   3. libGLX: glmux_vendor_list_discover_glx(), then glmux_select_glx_plan() for each screen.
 *
 * Threads: every function may be called from any thread at any time after glmux_select_new.
 * The request is read once in glmux_select_new; the GPU list is enumerated lazily by whichever
 * thread first needs it, under the enumeration lock (glmux_gpu_enum_lock, held across nothing
 * but libudev and libdrm; threads that come meanwhile wait for it and take its list), and
 * published with an atomic store that later callers read with no lock, so every caller sees the
 * same list and the same decisions; the recorded reasons are a lock-free list (one atomic
 * compare-and-swap a reason). Questions to a display (X11, Wayland) are asked by the calling
 * thread with nothing held.
 *
 * Cost: glmux_select_new() reads a few variables. GPUs are enumerated (and libdrm and libudev
 * loaded) only when two or more EGL vendors could serve or a variable asks for a GPU; libGLX
 * enumerates only when a variable asks for one.
 */
#ifndef GLMUX_SELECT_SELECT_H
#define GLMUX_SELECT_SELECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/lock.h"

/* ---- GPUs ------------------------------------------------------------------------------- */

enum glmux_gpu_kind {
    GLMUX_GPU_UNKNOWN,
    GLMUX_GPU_INTEGRATED,
    GLMUX_GPU_DISCRETE,
    GLMUX_GPU_VIRTUAL,
    GLMUX_GPU_DISPLAY_ONLY,  /* no render node (vc4, udl, evdi): never a render GPU */
};

/* The bus, as libdrm's drmDevice reports it. */
enum glmux_gpu_bus {
    GLMUX_BUS_PCI,
    GLMUX_BUS_USB,
    GLMUX_BUS_PLATFORM,
    GLMUX_BUS_HOST1X,
    GLMUX_BUS_OTHER,
};

struct glmux_gpu {
    char pci[16];           /* "0000:01:00.0"; "" for a non-PCI device */
    char tag[80];           /* Mesa's DRI_PRIME tag, built from the drmDevice as Mesa's loader
                               does ("pci-0000_01_00_0", "platform-7ec00000_v3d"); udev's
                               ID_PATH_TAG for a USB device, which Mesa gives no tag */
    char udev_tag[80];      /* udev's ID_PATH_TAG; "" when udev has none */
    enum glmux_gpu_bus bus;
    uint16_t vendor_id;     /* PCI ids; 0 for a non-PCI device */
    uint16_t device_id;
    uint32_t class_code;    /* PCI class, e.g. 0x030000 */
    char driver[32];        /* kernel driver ("i915", "nvidia", "virtio_gpu"); "" when none */
    char render_node[32];   /* "renderD128"; "" when none (a display-only device) */
    char card_node[32];     /* "card0"; "" when none */
    char power[16];         /* power/runtime_status ("active", "suspended"); "" if unknown */
    unsigned long long vram; /* mem_info_vram_total in bytes (amdgpu); 0 when unknown */
    bool boot_vga;          /* boot_vga reads 1 */
    bool boot_display;      /* boot_display reads 1 (kernel 6.18+) */
    enum glmux_gpu_kind kind;
    bool kind_from_udev;    /* the udev property GLMUX_GPU_CLASS decided the kind */
    char vendor[32];        /* the udev property GLMUX_VENDOR: the vendor that serves this GPU,
                               whatever the driver lists say; "" when not set */
    char served_by[32];     /* GLMUX_VENDOR, else the driver table's vendor for the driver
                               (glmux_driver_default_vendor, at enumeration); "" when none */
    bool is_default;        /* the default GPU (see glmux_gpu_list_enumerate) */
    int drm_index;          /* its place in libdrm's drmGetDevices2 list, the order in which
                               Mesa's loader counts DRI_PRIME=N and matches vendor:device */
};

struct glmux_gpu_list {
    struct glmux_gpu *gpus; /* PCI devices by address, then the others by tag */
    size_t count;
    int default_index;      /* -1 when there is no render-capable GPU */
    size_t drm_count;       /* how many devices libdrm listed (GPUs hidden by udev included) */
    const char *default_rule;  /* which rule picked the default (static string) */
    bool sysfs_missing;     /* /sys or libdrm is not there: nothing could be enumerated */
    char problem[320];      /* why (sysfs_missing), or the first odd value seen; "" */
    char ignored[200];      /* tags of the GPUs a udev rule hid (GLMUX_IGNORE=1), ", "-joined */
    char no_udev_record[200]; /* tags of the GPUs udev has no record of (no udev database, as
                                 in a container without /run/udev), ", "-joined; "" */
    bool no_udev;           /* libudev is missing: the facts come from libdrm and sysfs */
};

/*
 * Enumerates the DRM devices with libdrm (drmGetDevices2, which reads /dev/dri and sysfs and
 * opens no device node, so a sleeping discrete GPU stays asleep) and reads their properties
 * through libudev (driver, boot_vga, boot_display, power/runtime_status, VRAM size, ID_PATH_TAG
 * and the administrator's GLMUX_* properties, merged over the GPU's card and render nodes and
 * its parent devices). Both libraries are loaded on first use; without libudev the same facts
 * but the udev ones come from sysfs (gpu_sysfs.c). The default GPU, for a process that knows no
 * display, is the first rule that names a render-capable GPU: boot_display, boot_vga, the first
 * non-virtual GPU, the first GPU (a display's own GPU, when it is known, is the reference
 * instead: glmux_select_choose). Returns false only when out of memory.
 */
bool glmux_gpu_list_enumerate(struct glmux_gpu_list *out);
void glmux_gpu_list_clear(struct glmux_gpu_list *list);

/* Sorts, classifies and picks the default of a list filled by an enumerator (gpu_list.c). */
void glmux_gpu_list_finish(struct glmux_gpu_list *list);

/* The GPU of list with tag (Mesa's or udev's, glmux_gpu_has_tag); NULL when none. */
const struct glmux_gpu *glmux_gpu_list_find(const struct glmux_gpu_list *list, const char *tag);

/*
 * The selector's one lock (the enumeration lock, which serialises the calls into libudev and
 * libdrm) around fork() (util/lock.h's steps), from libEGL's and libGLX's fork handlers, after
 * their own locks.
 */
void glmux_select_fork(enum glmux_fork_step step);

/* Whether gpu has tag as its Mesa tag or its udev ID_PATH_TAG. */
bool glmux_gpu_has_tag(const struct glmux_gpu *gpu, const char *tag);

const char *glmux_gpu_kind_name(enum glmux_gpu_kind kind);
const char *glmux_gpu_bus_name(enum glmux_gpu_bus bus);

/*
 * Mesa's DRI_PRIME tag for a platform or host1x device from its OF full name, as Mesa's loader
 * builds it: the last path component "name@address" gives "platform-address_name", a name
 * without '@' gives "platform-name". Returns false when it does not fit.
 */
bool glmux_gpu_platform_tag(const char *fullname, char *tag, size_t size);

/*
 * Rewrites a device path ("platform-fd00000.gpu") in place into udev's ID_PATH_TAG form: every
 * run of characters other than A-Z a-z 0-9 '-' becomes one '_', with none at either end
 * ("platform-fd00000_gpu").
 */
void glmux_gpu_tag_normalize(char *tag);

/* ---- hotplug: udev's drm events (gpu_monitor.c, for glmux gpus --watch) ------------------ */

struct glmux_gpu_monitor;

/* Starts listening to udev's "drm" events (libudev loaded on demand); NULL with the reason in
 * err when udev cannot be listened to. */
struct glmux_gpu_monitor *glmux_gpu_monitor_open(char *err, size_t err_size);
/* The descriptor to poll for input. */
int glmux_gpu_monitor_fd(const struct glmux_gpu_monitor *m);
/* Reads every waiting event without blocking; events gets "add card1, add renderD129" (cut to
 * size). Returns how many were read. */
size_t glmux_gpu_monitor_drain(struct glmux_gpu_monitor *m, char *events, size_t size);
void glmux_gpu_monitor_close(struct glmux_gpu_monitor *m);

/* ---- the GPU behind a display (display_gpu.c) -------------------------------------------- */

/* The tag of the DRM device with that device number, as glmux_gpu_list_enumerate names it
 * (Mesa's tag), asked of libdrm (drmGetDeviceFromDevId). False when libdrm does not know it. */
bool glmux_gpu_tag_of_devid(unsigned long long devid, char *tag, size_t size);
/*
 * The same answer, cheaper: the tag of the GPU in known (enumerated; NULL for none) whose card or
 * render node has device number devid, found with a stat of each node and no libdrm call; only
 * when none has it (or the GPU is on USB, whose enumerated tag may be udev's), libdrm is asked
 * as glmux_gpu_tag_of_devid does. The display functions below take known for this.
 */
bool glmux_gpu_known_tag_of_devid(const struct glmux_gpu_list *known, unsigned long long devid,
                                  char *tag, size_t size);

/*
 * The GPU of an X screen: the device the X server's DRI3 extension opens for it, asked over the
 * connection of dpy (an Xlib Display *), or, with dpy NULL, over a short-lived connection of
 * our own to DISPLAY (its default screen). False with the reason in why (no DRI3, a remote
 * server, no client libraries).
 */
bool glmux_display_x11_gpu(const struct glmux_gpu_list *known, void *dpy, int screen, char *tag,
                           size_t size, char *why, size_t why_size);

/*
 * The GPU of a Wayland compositor: the main device of its default linux-dmabuf feedback
 * (version 4), else wl_drm's device node. Asked over display (the application's wl_display, on
 * a private queue, with the libwayland-client it loaded) or, with display NULL, over a
 * short-lived connection of our own to WAYLAND_DISPLAY (never WAYLAND_SOCKET's, which is the
 * application's). Bounded: a silent compositor costs at most a second. False with the reason in
 * why (display_wayland.c).
 */
bool glmux_display_wayland_gpu(const struct glmux_gpu_list *known, void *display, char *tag,
                               size_t size, char *why, size_t why_size);
/*
 * EGL_PLATFORM as libEGL reads it: a name (x11, wayland, android, gbm or drm, device) or a
 * number. True with the platform's EGLenum value in *platform when it names one; false when it is
 * unset or a name libEGL does not pass on ("surfaceless": the vendor reads the variable itself,
 * as with libglvnd; glmux_display_default_server knows it is on no display server). The values
 * are the registry's; src/egl/platform.c checks them against egl.h at compile time.
 */
#define GLMUX_EGL_PLATFORM_X11 0x31D5u
#define GLMUX_EGL_PLATFORM_WAYLAND 0x31D8u
#define GLMUX_EGL_PLATFORM_ANDROID 0x3141u
#define GLMUX_EGL_PLATFORM_GBM 0x31D7u
#define GLMUX_EGL_PLATFORM_DEVICE 0x313Fu
#define GLMUX_EGL_PLATFORM_SURFACELESS 0x31DDu
#define GLMUX_EGL_NONE 0x3038u          /* no platform: eglGetDisplay without EGL_PLATFORM */
bool glmux_select_egl_platform_env(unsigned int *platform);

/*
 * Which display server the default EGL display (no native display) is asked about: the one
 * EGL_PLATFORM names (x11, wayland, or their numbers 0x31D5, 0x31D8), else X11 when DISPLAY is
 * set (Mesa's default platform in Debian), else Wayland when WAYLAND_DISPLAY is. NONE, with the
 * reason in why, when neither is set or EGL_PLATFORM names another platform (surfaceless, gbm,
 * device...). glmux_select_egl_display_order decides with it.
 */
enum glmux_display_server {
    GLMUX_DISPLAY_SERVER_NONE,
    GLMUX_DISPLAY_SERVER_X11,
    GLMUX_DISPLAY_SERVER_WAYLAND,
};
enum glmux_display_server glmux_display_default_server(char *why, size_t why_size);

/* How the display's GPU was found, for GLMUX_DEBUG=select and `glmux explain`. */
#define GLMUX_DISPLAY_HOW_X11_OWN "the X server's DRI3 device, asked over a short connection " \
    "of glmux's own to DISPLAY"

#define GLMUX_DISPLAY_HOW_WAYLAND_APP "the compositor's main device (linux-dmabuf feedback, " \
    "else wl_drm), asked over the application's wl_display"
#define GLMUX_DISPLAY_HOW_WAYLAND_OWN "the compositor's main device (linux-dmabuf feedback, " \
    "else wl_drm), asked over a short connection of glmux's own to WAYLAND_DISPLAY"

/* ---- vendors ---------------------------------------------------------------------------- */

enum glmux_vendor_source {
    GLMUX_VENDOR_FROM_VENDOR_DIR,     /* a directory of the glmux vendor directory list */
    GLMUX_VENDOR_FROM_EGL_DIR,        /* one of libglvnd's EGL JSON directories */
    GLMUX_VENDOR_FROM_EGL_FILENAMES,  /* __EGL_VENDOR_LIBRARY_FILENAMES */
};

struct glmux_vendor {
    char *name;
    char *egl_library;       /* NULL: no EGL library */
    char *glx_library;       /* NULL: use libGLX_<name>.so.0 */
    char **drivers;          /* from the manifests; NULL with n_drivers 0 when none declared */
    size_t n_drivers;
    bool has_drivers;        /* a manifest declared a driver list (else the built-in table) */
    int priority;
    bool priority_declared;  /* a manifest declared it (else from a file name, or 50) */
    bool admin;              /* came from the administrator's directory (/etc/glvnd/...) */
    enum glmux_vendor_source source;
    char **manifests;        /* every manifest merged into this vendor, first one first */
    size_t n_manifests;
};

struct glmux_vendor_list {
    struct glmux_vendor *vendors;  /* in base order (see docs/vendors.md) */
    size_t count;
    bool libglvnd_override;        /* __EGL_VENDOR_LIBRARY_FILENAMES or _DIRS decided the list */
    const char *override_variable; /* which one, or NULL */
    char **dirs;                   /* the directories searched, in order */
    size_t n_dirs;
    size_t n_rejected;             /* manifests skipped because of errors */
};

/*
 * The directory list: GLMUX_VENDOR_DIRS when set (':'-separated, ignored in secure-execution
 * processes), else ${sysconfdir}/glvnd/egl_vendor.d, ${libdir}/glvnd/vendors and
 * ${datadir}/glvnd/egl_vendor.d. libglvnd's __EGL_VENDOR_LIBRARY_FILENAMES (exclusive list of
 * files) and __EGL_VENDOR_LIBRARY_DIRS (exclusive list of directories) win over both.
 * Manifests with errors (a FIFO or a device node among them) are skipped with one warning each
 * at the default level, at most 8 by name per call. Returns false only when out of memory; the
 * list is consistent then too (complete vendors only).
 */
bool glmux_vendor_list_discover(struct glmux_vendor_list *out);

/*
 * The same list for libGLX: the EGL-only variables __EGL_VENDOR_LIBRARY_FILENAMES and _DIRS do
 * not restrict it (libGLX finds vendors by name, libGLX_<name>.so.0).
 */
bool glmux_vendor_list_discover_glx(struct glmux_vendor_list *out);
/*
 * Where glmux_vendor_list_discover looks, without reading a manifest (`glmux check` reads each
 * itself): dirs, libglvnd_override and override_variable are filled, no vendor.
 */
bool glmux_vendor_list_where(struct glmux_vendor_list *out);
void glmux_vendor_list_clear(struct glmux_vendor_list *list);
const struct glmux_vendor *glmux_vendor_list_find(const struct glmux_vendor_list *list,
                                                  const char *name);

/*
 * The built-in driver→vendor table, with GLMUX_DRIVER_VENDORS ("drv=vendor,drv=vendor", ignored
 * when setuid) applied on top: the vendor name that serves a kernel driver when no manifest
 * declares a driver list, or NULL. A name from the variable is copied into buf (no TLS: the
 * libraries that link this are dlopened and reloaded), a built-in one is returned as is.
 */
#define GLMUX_DRIVER_VENDOR_MAX 65 /* a vendor name from GLMUX_DRIVER_VENDORS, with its NUL */
const char *glmux_driver_default_vendor(const char *driver, char buf[GLMUX_DRIVER_VENDOR_MAX]);

/*
 * Whether a driver name (a manifest's list, the table) names driver, the kernel driver as udev
 * reports it: the same name; "nvidia" and "nvidia-drm"; or the same once a "-drm" or "_drm"
 * suffix is dropped from driver (the platform driver "vc4-drm" is DRM driver "vc4").
 */
bool glmux_driver_matches(const char *listed, const char *driver);

/* ---- what the user asked for ------------------------------------------------------------ */

enum glmux_gpu_request_kind {
    GLMUX_REQUEST_NONE,
    GLMUX_REQUEST_DEFAULT,      /* GLMUX_GPU=default; also a value that names no GPU */
    GLMUX_REQUEST_INTEGRATED,   /* GLMUX_GPU=integrated */
    GLMUX_REQUEST_DISCRETE,     /* GLMUX_GPU=discrete */
    GLMUX_REQUEST_INDEX,        /* N >= 1: the N-th render GPU other than the reference */
    GLMUX_REQUEST_TAG,          /* pci-0000_01_00_0 */
    GLMUX_REQUEST_PCI_ID,       /* vvvv:dddd */
    GLMUX_REQUEST_NVIDIA,       /* __NV_PRIME_RENDER_OFFLOAD=1: an NVIDIA GPU */
};

struct glmux_gpu_request {
    enum glmux_gpu_request_kind kind;
    unsigned index;             /* INDEX; NVIDIA: provider number (NVIDIA-G<n>) */
    char tag[80];               /* TAG */
    uint16_t vendor_id, device_id;  /* PCI_ID */
    bool exclusive;             /* trailing '!': only the chosen GPU's vendors */
    bool mesa_rules;            /* DRI_PRIME: counted and matched exactly as Mesa's loader does
                                   (libdrm order, Mesa's own tags only) */
    const char *variable;       /* where it came from (static string) */
    char value[128];            /* the raw value, for messages */
    char note[200];             /* how Mesa reads an odd DRI_PRIME value, for the warning; "" */
};

/*
 * GLMUX_GPU's forms (glmux's own variable, and `glmux run --gpu`): default, integrated,
 * discrete, N (the N-th render GPU other than the reference, in PCI order), a tag (Mesa's or
 * udev's, any case of "pci-"), a PCI address 0000:01:00.0, vvvv:dddd; each with an optional
 * trailing '!'. Returns false with a message in err for a malformed value.
 */
bool glmux_gpu_request_parse(const char *value, struct glmux_gpu_request *out, char *err,
                             size_t err_size);

/*
 * DRI_PRIME as Mesa's OpenGL loader reads it (loader_get_user_preferred_fd): "vvvv:dddd" when
 * sscanf("%hx:%hx") reads two numbers (so "0000:01:00.0" is vendor 0000, device 0001), else
 * atoi(): 0 for "0" or a negative number (invalid: Mesa stays on the default GPU; the request is
 * DEFAULT with the reason in note), N for a positive number ("1abc" and " 1" are 1), and any
 * other value a tag compared exactly with Mesa's tags ("pci-…!" and "PCI-…" match nothing; note
 * says so). A trailing '!' marks an N or vendor:device request exclusive. Never fails.
 */
void glmux_gpu_request_parse_dri_prime(const char *value, struct glmux_gpu_request *out);

/* ---- selection -------------------------------------------------------------------------- */

/* Reads a variable; the default is glmux_env_get (ignores overrides when setuid). */
typedef const char *(*glmux_select_getenv_fn)(const char *name);

struct glmux_select_config {
    glmux_select_getenv_fn getenv;  /* NULL: glmux_env_get */
    const char *gpu_spec;           /* non-NULL: the request, over every variable (the tool's
                                       --gpu) */
    bool keep_reasons;              /* record every reason (glmux explain); otherwise only
                                       those GLMUX_DEBUG would print are formatted */
    bool quiet;                     /* keep the reasons but log nothing */
};

struct glmux_select;

/* A vendor offered to the selector: its name and its manifest's driver list. */
struct glmux_select_candidate {
    const char *name;
    const char *const *drivers;  /* NULL: use the built-in driver table */
    size_t n_drivers;
};

/* Creates the selector; config may be NULL. Reads the environment, nothing else. */
struct glmux_select *glmux_select_new(const struct glmux_select_config *config);
void glmux_select_free(struct glmux_select *sel);

/* The request in effect (kind NONE when none): the first of --gpu, __NV_PRIME_RENDER_OFFLOAD
 * (non-zero), DRI_PRIME, GLMUX_GPU that is set; the others are recorded as overruled. */
const struct glmux_gpu_request *glmux_select_request(const struct glmux_select *sel);

/* The GPUs, enumerated by the first caller (thread-safe; see the top of this file). */
const struct glmux_gpu_list *glmux_select_gpus(struct glmux_select *sel);

/* Whether GPUs were enumerated (for tests of the laziness rule). */
bool glmux_select_enumerated(const struct glmux_select *sel);

/* True when a candidate serves a GPU: the udev property GLMUX_VENDOR names it; else its driver
 * list, else the built-in table, names the GPU's kernel driver (glmux_driver_matches). */
bool glmux_select_candidate_serves(const struct glmux_select_candidate *cand,
                                   const struct glmux_gpu *gpu);

/* The candidate view of a discovered vendor (valid as long as the vendor list is). */
struct glmux_select_candidate glmux_select_candidate_of(const struct glmux_vendor *v);

/*
 * The GPU a vendor renders on for a display whose GPU is reference, from the variables the
 * vendor reads itself: "nvidia" offloads to the __NV_PRIME_RENDER_OFFLOAD_PROVIDER-th NVIDIA GPU
 * when __NV_PRIME_RENDER_OFFLOAD is set (NULL when there is none), any other vendor follows
 * DRI_PRIME as Mesa's loader does; without its variable a vendor renders on reference.
 */
const struct glmux_gpu *glmux_select_vendor_lands(struct glmux_select *sel, const char *vendor,
                                                  const struct glmux_gpu *reference);

/* The decision for one display (or the process, whose reference is the default GPU). */
struct glmux_select_choice {
    const struct glmux_gpu *gpu;       /* whose vendors come first; NULL: no GPU, the vendors
                                          keep their order */
    const struct glmux_gpu *reference; /* the display's GPU, else the default GPU; NULL: none */
    const struct glmux_gpu *asked;     /* the GPU the request names (NULL: none, or none
                                          matches) */
    const char *vendor;                /* the first candidate that serves gpu; NULL: none */
    bool unmet;                        /* a request was made and gpu is not the GPU it names
                                          (none matches, no installed vendor serves it, or its
                                          vendor cannot be told: it would land elsewhere) */
    bool exclusive;                    /* the request's '!', when it was met */
    char why[320];                     /* when unmet: why, in one line; "" otherwise */
};

/*
 * The one rule: the GPU the request names (with reference as Mesa's default device), kept when
 * a candidate serves it and that vendor lands on it (glmux_select_vendor_lands); otherwise
 * reference. cands NULL: the GPUs' served_by (the built-in table). Enumerates GPUs. A warning
 * is logged once per process for each kind of unmet request.
 */
void glmux_select_choose(struct glmux_select *sel, const struct glmux_gpu *reference,
                         const struct glmux_select_candidate *cands, size_t n,
                         struct glmux_select_choice *out);

/* glmux_select_choose for the default GPU and the built-in table: the GPU the process renders on
 * when it knows no display (the tool, tests). NULL when there is none. */
const struct glmux_gpu *glmux_select_chosen_gpu(struct glmux_select *sel);

/*
 * Writes into order[0..n) a permutation of 0..n-1: the order in which libEGL loads the
 * candidates (given in base order), the vendors of the chosen GPU (glmux_select_choose for the
 * default GPU) first. Returns how many entries are valid: n, except with an exclusive request
 * ("!"), where vendors that do not serve the chosen GPU are dropped. Enumerates GPUs only when
 * n >= 2 or a variable asks for a GPU. With a libglvnd override (__EGL_VENDOR_LIBRARY_FILENAMES
 * / _DIRS) the order is left as given.
 */
size_t glmux_select_egl_vendor_order(struct glmux_select *sel,
                                     const struct glmux_select_candidate *cands, size_t n,
                                     size_t *order);

/*
 * The EGL vendors libEGL loads, in order: writes into order (which holds vl->count entries) the
 * indexes into vl->vendors of the vendors that have an EGL library, ordered by
 * glmux_select_egl_vendor_order, and returns how many. libEGL and `glmux explain` both call it.
 */
size_t glmux_select_egl_plan(struct glmux_select *sel, const struct glmux_vendor_list *vl,
                             size_t *order);

/* What glmux_select_egl_display_order found out about a display's GPU. */
struct glmux_select_display {
    bool asked;              /* the display was asked for its GPU */
    bool known;              /* ... and answered: tag holds it */
    char tag[80];
    const char *how;         /* how it was asked (static text), NULL when not asked */
    char why[256];           /* one line for GLMUX_DEBUG=select and `glmux explain` */
};

/*
 * The order in which the vendors cands (in the process's load order) are asked for one EGL
 * display of platform (an EGLenum; EGL_NONE for eglGetDisplay without EGL_PLATFORM) with
 * native handle native (NULL: the default display): glmux_select_choose with the display's GPU
 * as the reference. The display is asked for its GPU only when its answer can change the order
 * (two or more candidates, and the candidates' order differs between two GPUs taken as the
 * reference) and never for surfaceless, device, GBM or Android displays; a connection of
 * glmux's own (the default display) is opened only when no variable asks for a GPU. With a
 * libglvnd override, or when GPUs were not enumerated, the order is the process's (order is the
 * identity). Returns true when the order differs from the process's.
 */
bool glmux_select_egl_display_order(struct glmux_select *sel, unsigned int platform,
                                    void *native, const struct glmux_select_candidate *cands,
                                    size_t n, size_t *order, struct glmux_select_display *info);

/* One step of the GLX vendor search for a screen (glmux_select_glx_plan). */
enum glmux_glx_step_kind {
    GLMUX_GLX_STEP_VENDOR,   /* load the vendor `name` */
    GLMUX_GLX_STEP_SERVER,   /* each vendor of the X server's GLX_VENDOR_NAMES_EXT list */
};

struct glmux_glx_step {
    enum glmux_glx_step_kind kind;
    const char *name;        /* VENDOR: valid as long as sel and the environment */
    const char *why;         /* static text for messages */
    bool check_screen;       /* the vendor must accept the screen (isScreenSupported) */
    bool override;           /* a libglvnd variable named it */
    const char *fallback;    /* SERVER: the vendor tried when the server names vendors and none
                                of them serves (the pixels vendor); NULL: none */
};

#define GLMUX_GLX_PLAN_MAX 6

/*
 * The rule for an X screen's GLX vendor, as libGLX follows it and `glmux explain` shows it: the
 * steps to try in order, the first vendor that loads (and accepts the screen, where the step
 * says so) serves it. __GLX_FORCE_VENDOR_LIBRARY_<screen>, then __GLX_VENDOR_LIBRARY_NAME
 * (libglvnd's variables; when either is set the GPU selector has no say), else, when a variable
 * asks for a GPU, the vendor of glmux_select_choose's GPU if it is not the screen's own GPU (the
 * reference). When every render GPU, taken as the screen's, gives one vendor and at least one
 * of them a selector step, that vendor is the step without asking the X server; when they give
 * different vendors the screen's GPU is asked of the X server over dpy (the application's
 * connection, never one of glmux's own); else, or when that fails, the default GPU is the
 * reference. Then the X server's list, then "indirect" and
 * Fedora's "system". vendors (glmux_vendor_list_discover_glx) gives driver lists; NULL or empty:
 * the built-in driver table. sel may be NULL (out of memory): no selector step. dpy may be NULL
 * (the default GPU is the reference). Returns the number of steps.
 */
size_t glmux_select_glx_plan(struct glmux_select *sel, void *dpy, int screen,
                             const struct glmux_vendor_list *vendors,
                             struct glmux_glx_step out[GLMUX_GLX_PLAN_MAX]);

/* ---- which variable a vendor reads (choose.c) ------------------------------------------- */

/* Whether vendor is NVIDIA's ("nvidia"), the one vendor that reads its own variables. */
bool glmux_select_vendor_is_nvidia(const char *vendor);
/* Whether NVIDIA's vendor serves gpu (its served_by; false for NULL). */
bool glmux_gpu_served_by_nvidia(const struct glmux_gpu *gpu);
/* That variable when the selector's environment sets it (a non-zero __NV_PRIME_RENDER_OFFLOAD,
 * a DRI_PRIME that is not empty), else NULL. */
const char *glmux_select_vendor_told_by(const struct glmux_select *sel, const char *vendor);
/* A variable as the selector reads it (its getenv; NULL when unset or empty): the tool reads
 * the environment through this, as the libraries do. */
const char *glmux_select_getenv(const struct glmux_select *sel, const char *name);

/* ---- what a new process is given (launch.c) --------------------------------------------- */

/* One variable to set (value) or to remove (unset). */
struct glmux_select_env {
    const char *name;
    char value[96];
    bool unset;
};

#define GLMUX_SELECT_ENV_MAX 8

/*
 * The variables vendor reads to render on gpu for a display on reference: none when gpu is
 * reference; __NV_PRIME_RENDER_OFFLOAD=1 (and __NV_PRIME_RENDER_OFFLOAD_PROVIDER=NVIDIA-G<n>
 * with several NVIDIA GPUs) for "nvidia"; DRI_PRIME=<Mesa's tag> for any other vendor. Returns
 * the number written (at most 2).
 */
size_t glmux_select_vendor_env(struct glmux_select *sel, const char *vendor,
                               const struct glmux_gpu *gpu, const struct glmux_gpu *reference,
                               struct glmux_select_env *out);

/*
 * What `glmux run/env --gpu` give a new process so that every GL stack lands on gpu, whatever
 * the session set: GLMUX_GPU=<tag>, the variables of gpu's vendor (glmux_select_vendor_env
 * against the default GPU; an NVIDIA GPU that is not the default also gets
 * __GLX_VENDOR_LIBRARY_NAME=nvidia and __VK_LAYER_NV_optimus=NVIDIA_only, as switcheroo-control
 * publishes), and the removal of the other GPU variables the environment holds (DRI_PRIME for
 * an NVIDIA GPU; the NVIDIA variables, and __GLX_VENDOR_LIBRARY_NAME=nvidia, for another).
 * Returns the number written (at most GLMUX_SELECT_ENV_MAX).
 */
size_t glmux_select_launch_env(struct glmux_select *sel, const struct glmux_gpu *gpu,
                               struct glmux_select_env *out);

/* ---- reasons ---------------------------------------------------------------------------- */

/*
 * Every rule considered so far and why, in order, each text once, for `glmux explain` (config
 * keep_reasons) and GLMUX_DEBUG=select. Without keep_reasons only the messages that were
 * logged are kept. Read them when no other thread uses the selector.
 */
size_t glmux_select_reason_count(const struct glmux_select *sel);
/* From now on every reason is kept, as with config keep_reasons (libGLX's selector, when it
 * decides for `glmux explain`: src/glx/glx_explain.h). Call it before other threads use sel. */
void glmux_select_keep_reasons(struct glmux_select *sel);
const char *glmux_select_reason(const struct glmux_select *sel, size_t i);

#endif /* GLMUX_SELECT_SELECT_H */
