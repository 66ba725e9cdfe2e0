/* SPDX-License-Identifier: MIT */
/*
 * glmux: the vendor selector, a static library (glmux_select) linked into libEGL, libGLX and the
 * glmux tool. It finds vendors (the glmux vendor directory and libglvnd's EGL JSON locations),
 * enumerates GPUs through libdrm and libudev without opening any device node, reads what the
 * user asked for (GLMUX_GPU, DRI_PRIME, __NV_PRIME_RENDER_OFFLOAD and libglvnd's overrides)
 * and decides: the EGL vendor order, the GLX vendor for a screen, and the environment the
 * chosen vendor needs to render on the chosen GPU.
 *
 * How libEGL and libGLX call it (docs/vendors.md, "Integration", says the same):
 *
 *   1. Once per process, inside the library's one-time vendor initialisation (pthread_once or
 *      the init lock), call glmux_select_new(NULL). This reads the environment only; it does not
 *      enumerate GPUs. The object is then immutable except for its lazily filled caches, which are
 *      only ever filled under that same lock. Keep it for the life of the process.
 *   2. libEGL: discover vendors with glmux_vendor_list_discover() (it implements libglvnd's
 *      __EGL_VENDOR_LIBRARY_FILENAMES / __EGL_VENDOR_LIBRARY_DIRS rules and adds the vendor
 *      directory), build one struct glmux_select_candidate per vendor that has an EGL library, and
 *      call glmux_select_egl_vendor_order(). Load and call vendors in the returned order, for
 *      eglGetDisplay(EGL_DEFAULT_DISPLAY), eglGetPlatformDisplay and the device list alike.
 *   3. libGLX: for each (display, screen) whose vendor is being resolved, after its own
 *      __GLX_FORCE_VENDOR_LIBRARY_<n> / __GLX_VENDOR_LIBRARY_NAME checks and before asking the
 *      server (GLX_EXT_libglvnd), call glmux_select_glx_vendor_for_screen(). A non-NULL name is
 *      the vendor to load for that screen (libGLX_<name>.so.0, or the manifest's GLX library
 *      from glmux_vendor_list_find()); if it fails to load or refuses the screen
 *      (isScreenSupported), continue with the normal libglvnd procedure.
 *   4. Both: just before a vendor library is dlopen'ed (still under the lock), call
 *      glmux_select_apply_vendor_env() for that vendor: it sets what glmux_select_vendor_env()
 *      lists, each variable with setenv(name, value, 1) only if getenv(name) differs. Nothing is
 *      set when the user asked for nothing, so ordinary processes never have their environment
 *      touched.
 *      The variables are set once per process, before the vendor that reads them exists, under
 *      the lock that serialises vendor loading; docs/vendors.md explains why that is the safe
 *      point in a threaded process and what remains the application's responsibility.
 *
 * Cost: glmux_select_new() reads a few variables. GPUs are enumerated (and libdrm and libudev
 * loaded) only when glmux_select_egl_vendor_order() sees two or more candidates, or a variable
 * asks for a GPU.
 */
#ifndef GLMUX_SELECT_SELECT_H
#define GLMUX_SELECT_SELECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
    bool is_default;        /* the default GPU (see glmux_gpu_list_enumerate) */
};

struct glmux_gpu_list {
    struct glmux_gpu *gpus; /* PCI devices by address, then the others by tag */
    size_t count;
    int default_index;      /* -1 when there is no render-capable GPU */
    const char *default_rule;  /* which rule picked the default (static string) */
    bool sysfs_missing;     /* /sys or libdrm is not there: nothing could be enumerated */
    char problem[320];      /* why (sysfs_missing), or the first odd value seen; "" */
    char ignored[200];      /* tags of the GPUs a udev rule hid (GLMUX_IGNORE=1), ", "-joined */
    char no_udev_record[200]; /* tags of the GPUs udev has no record of (no udev database, as
                                 in a container without /run/udev), ", "-joined; "" */
};

/*
 * Enumerates the DRM devices with libdrm (drmGetDevices2, which reads /dev/dri and sysfs and
 * opens no device node, so a sleeping discrete GPU stays asleep) and reads their properties
 * through libudev (driver, boot_vga, boot_display, power/runtime_status, VRAM size, ID_PATH_TAG
 * and the administrator's GLMUX_* properties). Both libraries are loaded on first use. display_tag,
 * when not NULL, is the GPU behind the display (a tag as in struct glmux_gpu). The default is the
 * first rule that names a render-capable GPU: the display's GPU, boot_display, boot_vga, the
 * first non-virtual GPU, the first GPU. Returns false only when out of memory.
 */
bool glmux_gpu_list_enumerate(struct glmux_gpu_list *out, const char *display_tag);
void glmux_gpu_list_clear(struct glmux_gpu_list *list);

/* Sorts, classifies and picks the default of a list filled by an enumerator (gpu_list.c). */
void glmux_gpu_list_finish(struct glmux_gpu_list *list, const char *display_tag);

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

/* The tag of the DRM device with that device number / behind that file descriptor, as
 * glmux_gpu_list_enumerate names it (Mesa's tag), asked of libdrm (drmGetDeviceFromDevId).
 * False when libdrm does not know it. */
bool glmux_gpu_tag_of_devid(unsigned long long devid, char *tag, size_t size);
bool glmux_gpu_tag_of_fd(int fd, char *tag, size_t size);
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

/* The GPU of a gbm_device (libgbm must already be loaded, as it is by whoever made it). */
bool glmux_display_gbm_gpu(const struct glmux_gpu_list *known, void *gbm, char *tag, size_t size);

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
 * unset or a name libEGL does not know ("surfaceless": the vendor's business). The values are
 * the registry's; src/egl/platform.c checks them against egl.h at compile time.
 */
#define GLMUX_EGL_PLATFORM_X11 0x31D5u
#define GLMUX_EGL_PLATFORM_WAYLAND 0x31D8u
#define GLMUX_EGL_PLATFORM_ANDROID 0x3141u
#define GLMUX_EGL_PLATFORM_GBM 0x31D7u
#define GLMUX_EGL_PLATFORM_DEVICE 0x313Fu
bool glmux_select_egl_platform_env(unsigned int *platform);

/*
 * Which display server the default EGL display (no native display) is asked about: the one
 * EGL_PLATFORM names (x11, wayland, or their numbers 0x31D5, 0x31D8), else X11 when DISPLAY is
 * set (Mesa's default platform in Debian), else Wayland when WAYLAND_DISPLAY is. NONE, with the
 * reason in why, when neither is set or EGL_PLATFORM names another platform (gbm, device...).
 * libEGL and `glmux explain` both decide with it.
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

/* The compiled-in glmux vendor directory, e.g. /usr/lib/x86_64-linux-gnu/glvnd/vendors. */
const char *glmux_vendor_dir_default(void);

/*
 * The built-in driver→vendor table, with GLMUX_DRIVER_VENDORS ("drv=vendor,drv=vendor", ignored
 * when setuid) applied on top: the vendor name that serves a kernel driver when no manifest
 * declares a driver list, or NULL. A name from the variable is copied into buf (no TLS: the
 * libraries that link this are dlopened and reloaded), a built-in one is returned as is.
 */
#define GLMUX_DRIVER_VENDOR_MAX 65 /* a vendor name from GLMUX_DRIVER_VENDORS, with its NUL */
const char *glmux_driver_default_vendor(const char *driver, char buf[GLMUX_DRIVER_VENDOR_MAX]);

/* ---- what the user asked for ------------------------------------------------------------ */

enum glmux_gpu_request_kind {
    GLMUX_REQUEST_NONE,
    GLMUX_REQUEST_DEFAULT,      /* GLMUX_GPU=default */
    GLMUX_REQUEST_INTEGRATED,   /* GLMUX_GPU=integrated */
    GLMUX_REQUEST_DISCRETE,     /* GLMUX_GPU=discrete */
    GLMUX_REQUEST_INDEX,        /* N >= 1: the N-th non-default GPU in PCI order */
    GLMUX_REQUEST_TAG,          /* pci-0000_01_00_0 (any ID_PATH_TAG) */
    GLMUX_REQUEST_PCI_ID,       /* vvvv:dddd */
    GLMUX_REQUEST_NVIDIA,       /* __NV_PRIME_RENDER_OFFLOAD=1: an NVIDIA GPU */
};

struct glmux_gpu_request {
    enum glmux_gpu_request_kind kind;
    unsigned index;             /* INDEX; NVIDIA: provider number (NVIDIA-G<n>) */
    char tag[80];               /* TAG */
    uint16_t vendor_id, device_id;  /* PCI_ID */
    bool exclusive;             /* trailing '!': only the chosen GPU's vendors */
    const char *variable;       /* where it came from (static string) */
    char value[128];            /* the raw value, for messages */
};

/*
 * Parses one value. keywords: accept default/integrated/discrete (GLMUX_GPU) besides Mesa's
 * DRI_PRIME forms. Returns false with a message in err for a malformed value.
 */
bool glmux_gpu_request_parse(const char *value, bool keywords, struct glmux_gpu_request *out,
                             char *err, size_t err_size);

/* ---- selection -------------------------------------------------------------------------- */

/* Reads a variable; the default is glmux_env_get (ignores overrides when setuid). */
typedef const char *(*glmux_select_getenv_fn)(const char *name);

struct glmux_select_config {
    glmux_select_getenv_fn getenv;  /* NULL: glmux_env_get */
    const char *display_tag;        /* the display server's GPU when known, or NULL */
    const char *gpu_spec;           /* non-NULL: use this as GLMUX_GPU (glmux env/run --gpu) */
    bool keep_reasons;              /* record every reason (glmux explain); otherwise only
                                       those GLMUX_DEBUG would print are formatted */
    bool quiet;                     /* keep the reasons but log nothing (the tool's second
                                       selector, whose warnings the first one already gave) */
};

struct glmux_select;

/* A vendor libEGL offers to the selector: its name and its manifest's driver list. */
struct glmux_select_candidate {
    const char *name;
    const char *const *drivers;  /* NULL: use the built-in driver table */
    size_t n_drivers;
};

/* One variable a vendor needs set before it is loaded. */
struct glmux_select_env {
    const char *name;
    char value[96];
};

#define GLMUX_SELECT_ENV_MAX 4

/* Creates the selector; config may be NULL. Reads the environment, nothing else. */
struct glmux_select *glmux_select_new(const struct glmux_select_config *config);
void glmux_select_free(struct glmux_select *sel);

/* The request in effect (kind NONE when none), after precedence among the variables. */
const struct glmux_gpu_request *glmux_select_request(struct glmux_select *sel);

/* The GPUs (enumerating on first use). */
const struct glmux_gpu_list *glmux_select_gpus(struct glmux_select *sel);

/* The GPU the process should render on (enumerating on first use); NULL when there is none. */
const struct glmux_gpu *glmux_select_chosen_gpu(struct glmux_select *sel);

/* True when a candidate serves a GPU: its driver list, else the built-in table, names the
 * GPU's kernel driver ("nvidia-drm" and "nvidia" are one driver). */
bool glmux_select_candidate_serves(const struct glmux_select_candidate *cand,
                                   const struct glmux_gpu *gpu);

/* The candidate view of a discovered vendor (valid as long as the vendor list is). */
struct glmux_select_candidate glmux_select_candidate_of(const struct glmux_vendor *v);

/* True when a GPU was asked for and none matched (so the default GPU is used). */
bool glmux_select_request_unmet(struct glmux_select *sel);

/*
 * Writes into order[0..n) a permutation of 0..n-1: the order in which libEGL should try the
 * candidates (given in base order). Returns how many entries are valid, which is n except with
 * an exclusive request ("!"), where vendors that do not serve the chosen GPU are dropped.
 * Enumerates GPUs only when n >= 2 or a variable asks for a GPU. With a libglvnd override
 * (__EGL_VENDOR_LIBRARY_FILENAMES / _DIRS) the order is left as given.
 */
size_t glmux_select_egl_vendor_order(struct glmux_select *sel,
                                     const struct glmux_select_candidate *cands, size_t n,
                                     size_t *order);

/*
 * The order in which the vendors cands (given in the process's load order) are asked for one
 * EGL display whose GPU is display_tag: the vendors that serve that GPU first, the others after,
 * each group in the given order. The process order is kept (order is the identity) when a
 * variable asked for a GPU or libglvnd's __EGL_VENDOR_LIBRARY_* decided the list (both win over
 * the display), when display_tag names no render-capable GPU, or when GPUs were not enumerated.
 * Reads the selector only (safe from any thread once the vendors are loaded). why gets one line
 * for GLMUX_DEBUG=select and `glmux explain`. Returns true when the order differs from the
 * process's.
 */
bool glmux_select_display_order(const struct glmux_select *sel,
                                const struct glmux_select_candidate *cands, size_t n,
                                const char *display_tag, size_t *order, char *why,
                                size_t why_size);

/*
 * The EGL vendors libEGL loads, in order: writes into order (which holds vl->count entries) the
 * indexes into vl->vendors of the vendors that have an EGL library, ordered by
 * glmux_select_egl_vendor_order, and returns how many. libEGL and `glmux explain` both call it.
 */
size_t glmux_select_egl_plan(struct glmux_select *sel, const struct glmux_vendor_list *vl,
                             size_t *order);

/* One step of the GLX vendor search for a screen (glmux_select_glx_plan). */
enum glmux_glx_step_kind {
    GLMUX_GLX_STEP_VENDOR,   /* load the vendor `name` */
    GLMUX_GLX_STEP_SERVER,   /* each vendor of the X server's GLX_VENDOR_NAMES_EXT list */
};

struct glmux_glx_step {
    enum glmux_glx_step_kind kind;
    const char *name;        /* VENDOR: valid until the environment or sel changes */
    const char *why;         /* static text for messages */
    bool check_screen;       /* the vendor must accept the screen (isScreenSupported) */
    bool override;           /* a libglvnd variable named it: glmux sets nothing for it */
};

#define GLMUX_GLX_PLAN_MAX 6

/*
 * The rule for an X screen's GLX vendor, as libGLX follows it and `glmux explain` shows it: the
 * steps to try in order, the first vendor that loads (and accepts the screen, where the step
 * says so) serves it. __GLX_FORCE_VENDOR_LIBRARY_<screen>, then __GLX_VENDOR_LIBRARY_NAME
 * (libglvnd's variables; when either is set the GPU selector has no say), else the selector's
 * vendor when a GPU other than the default one was asked for; then the X server's list, then
 * "indirect" and Fedora's "system". vendors (glmux_vendor_list_discover_glx) gives driver
 * lists; NULL or empty: the built-in driver table. sel may be NULL (out of memory): no
 * selector step. Returns the number of steps.
 */
size_t glmux_select_glx_plan(struct glmux_select *sel, int screen,
                             const struct glmux_vendor_list *vendors,
                             struct glmux_glx_step out[GLMUX_GLX_PLAN_MAX]);

/*
 * The first vendor of glmux_select_glx_plan, or NULL when the X server's list comes first.
 */
const char *glmux_select_glx_vendor_for_screen(struct glmux_select *sel, int screen,
                                               const struct glmux_vendor_list *vendors);

/*
 * The variables the vendor cand needs so that it renders on the chosen GPU: DRI_PRIME=<tag> for
 * a Mesa-style vendor, __NV_PRIME_RENDER_OFFLOAD=1 (and __NV_PRIME_RENDER_OFFLOAD_PROVIDER when
 * there are several NVIDIA GPUs) for NVIDIA's driver. None when the user asked for nothing or
 * cand does not serve the chosen GPU. When the chosen GPU is the default one, only a DRI_PRIME
 * that would move a Mesa-style vendor elsewhere (overridden by GLMUX_GPU, malformed, or naming no
 * GPU) is replaced by the default GPU's tag. Returns the number written (at most
 * GLMUX_SELECT_ENV_MAX).
 */
size_t glmux_select_vendor_env(struct glmux_select *sel, const struct glmux_select_candidate *cand,
                               struct glmux_select_env *out);

/*
 * Applies glmux_select_vendor_env() for cand to the process environment: each variable is set
 * with setenv(name, value, 1) only when getenv(name) differs, so a second call, or a value the
 * user or `glmux run` already set, writes nothing. Call it under the lock that serialises vendor
 * loading, just before dlopen'ing cand's library (docs/vendors.md §7 explains why that is the
 * safe point). Returns the number of variables written.
 */
size_t glmux_select_apply_vendor_env(struct glmux_select *sel,
                                     const struct glmux_select_candidate *cand);

/*
 * The switcheroo-style launch set for a GPU, for `glmux env/run --gpu`: GLMUX_GPU=<tag> plus
 * what makes libglvnd-based stacks follow too (DRI_PRIME for Mesa GPUs; the NVIDIA offload
 * variables, __GLX_VENDOR_LIBRARY_NAME=nvidia and __VK_LAYER_NV_optimus for NVIDIA GPUs that are
 * not the default). Returns the number written (at most GLMUX_SELECT_ENV_MAX + 2).
 */
size_t glmux_select_launch_env(struct glmux_select *sel, const struct glmux_gpu *gpu,
                               struct glmux_select_env *out);

/*
 * Every rule considered so far and why, in order, for `glmux explain` (config keep_reasons) and
 * GLMUX_DEBUG=select. Without keep_reasons only the messages that were logged are kept.
 */
size_t glmux_select_reason_count(const struct glmux_select *sel);
const char *glmux_select_reason(const struct glmux_select *sel, size_t i);

/* Whether GPUs were enumerated (for tests of the laziness rule). */
bool glmux_select_enumerated(const struct glmux_select *sel);

#endif /* GLMUX_SELECT_SELECT_H */
