/* SPDX-License-Identifier: MIT */
/*
 * glmux bench: what a frame costs a GLX program on $DISPLAY, for whichever libGL it is given
 * (glmux's, or Debian's libglvnd with Mesa), so that one binary measures both. Renders FRAMES
 * frames into a WIDTHxHEIGHT window (a clear and 64 coloured triangles turning, GL 1.x, as
 * glxgears-like as a few lines get) and swaps; prints frames per second (wall clock), CPU
 * milliseconds per frame (getrusage: every thread of the process, llvmpipe's included), bytes
 * the process wrote per frame (/proc/self/io "wchar": the X connection, nearly all of it), the
 * GL renderer, the alpha bits of the default framebuffer, and the GL libraries the process has
 * mapped (/proc/self/maps: which libGLX, libGLdispatch and vendors each stack really loaded).
 * CONFIG "rgb" asks for what glxgears asks for (no alpha: llvmpipe renders into an X8 buffer),
 * "rgba" for 8 bits of alpha too.
 * usage: bench_frames LIBGL WIDTH HEIGHT FRAMES [rgb|rgba]
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <GL/gl.h>
#include <GL/glx.h>

static struct {
    XVisualInfo *(*ChooseVisual)(Display *, int, int *);
    GLXContext (*CreateContext)(Display *, XVisualInfo *, GLXContext, Bool);
    Bool (*MakeCurrent)(Display *, GLXDrawable, GLXContext);
    void (*SwapBuffers)(Display *, GLXDrawable);
    void (*DestroyContext)(Display *, GLXContext);
    void (*ClearColor)(GLfloat, GLfloat, GLfloat, GLfloat);
    void (*Clear)(GLbitfield);
    void (*Begin)(GLenum);
    void (*End)(void);
    void (*Color3f)(GLfloat, GLfloat, GLfloat);
    void (*Vertex2f)(GLfloat, GLfloat);
    void (*Finish)(void);
    const GLubyte *(*GetString)(GLenum);
    void (*GetIntegerv)(GLenum, GLint *);
} gl;

static unsigned long long written(void)
{
    FILE *f = fopen("/proc/self/io", "r");
    char line[128];
    unsigned long long v = 0;

    if (f == NULL)
        return 0;
    while (fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, "wchar:", 6) == 0)
            v = strtoull(line + 6, NULL, 10);
    }
    fclose(f);
    return v;
}

/* The GL and EGL libraries mapped into the process, comma-separated. */
static void print_libs(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[4096], seen[8192] = "";
    size_t used = 0;

    if (f == NULL)
        return;
    while (fgets(line, sizeof(line), f) != NULL) {
        char *path = strchr(line, '/'), *base;

        if (path == NULL)
            continue;
        path[strcspn(path, "\n")] = '\0';
        base = strrchr(path, '/') + 1;
        if (strncmp(base, "libGL", 5) != 0 && strncmp(base, "libEGL", 6) != 0 &&
            strncmp(base, "libOpenGL", 9) != 0)
            continue;
        if (strstr(seen, path) != NULL || used + strlen(path) + 2 > sizeof(seen))
            continue;
        used += (size_t)snprintf(seen + used, sizeof(seen) - used, "%s%s", used ? "," : "", path);
    }
    fclose(f);
    printf(" libs=%s", seen);
}

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu(void)
{
    struct rusage ru;

    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static void draw(int frame)
{
    double a = frame * 0.05;

    gl.ClearColor(0.1f, 0.1f, 0.15f, 1.0f);
    gl.Clear(GL_COLOR_BUFFER_BIT);
    gl.Begin(GL_TRIANGLES);
    for (int i = 0; i < 64; i++) {
        double b = a + i * (2 * M_PI / 64);

        gl.Color3f((float)(i & 1), (float)((i >> 1) & 1), (float)((i >> 2) & 1));
        gl.Vertex2f(0.0f, 0.0f);
        gl.Vertex2f((float)(0.9 * cos(b)), (float)(0.9 * sin(b)));
        gl.Vertex2f((float)(0.9 * cos(b + 0.05)), (float)(0.9 * sin(b + 0.05)));
    }
    gl.End();
}

int main(int argc, char **argv)
{
    int attribs[] = { GLX_RGBA, GLX_DOUBLEBUFFER, GLX_RED_SIZE, 8, GLX_DEPTH_SIZE, 16,
                      None, None, None };
    XSetWindowAttributes swa = { 0 };
    Display *dpy;
    XVisualInfo *vis;
    GLXContext ctx;
    Window win;
    void *lib;
    int w, h, frames;
    GLint alpha = -1;
    unsigned long long b0;
    double t0, c0, t1, c1;

    if (argc < 5 || (argc > 5 && strcmp(argv[5], "rgb") != 0 && strcmp(argv[5], "rgba") != 0)) {
        fprintf(stderr, "usage: %s LIBGL WIDTH HEIGHT FRAMES [rgb|rgba]\n", argv[0]);
        return 2;
    }
    if (argc > 5 && strcmp(argv[5], "rgba") == 0) {
        attribs[6] = GLX_ALPHA_SIZE;
        attribs[7] = 8;
    }
    if ((lib = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL)) == NULL) {
        fprintf(stderr, "%s\n", dlerror());
        return 1;
    }
#define LOAD(field, name)                                                   \
    if ((*(void **)&gl.field = dlsym(lib, name)) == NULL) {                 \
        fprintf(stderr, "%s has no %s\n", argv[1], name);                  \
        return 1;                                                           \
    }
    LOAD(ChooseVisual, "glXChooseVisual") LOAD(CreateContext, "glXCreateContext")
    LOAD(MakeCurrent, "glXMakeCurrent") LOAD(SwapBuffers, "glXSwapBuffers")
    LOAD(DestroyContext, "glXDestroyContext") LOAD(ClearColor, "glClearColor")
    LOAD(Clear, "glClear") LOAD(Begin, "glBegin") LOAD(End, "glEnd") LOAD(Color3f, "glColor3f")
    LOAD(Vertex2f, "glVertex2f") LOAD(Finish, "glFinish") LOAD(GetString, "glGetString")
    LOAD(GetIntegerv, "glGetIntegerv")
#undef LOAD
    w = atoi(argv[2]);
    h = atoi(argv[3]);
    frames = atoi(argv[4]);
    if ((dpy = XOpenDisplay(NULL)) == NULL) {
        fprintf(stderr, "cannot open display\n");
        return 1;
    }
    vis = gl.ChooseVisual(dpy, DefaultScreen(dpy), attribs);
    if (vis == NULL || (ctx = gl.CreateContext(dpy, vis, NULL, True)) == NULL) {
        fprintf(stderr, "no GLX visual or context\n");
        return 1;
    }
    swa.colormap = XCreateColormap(dpy, RootWindow(dpy, vis->screen), vis->visual, AllocNone);
    win = XCreateWindow(dpy, RootWindow(dpy, vis->screen), 0, 0, (unsigned)w, (unsigned)h, 0,
                        vis->depth, InputOutput, vis->visual, CWColormap | CWBorderPixel, &swa);
    XMapWindow(dpy, win);
    XSync(dpy, False);
    gl.MakeCurrent(dpy, win, ctx);
    for (int i = 0; i < 5; i++) { /* warm up: shaders compiled, buffers made */
        draw(i);
        gl.SwapBuffers(dpy, win);
    }
    gl.Finish();
    XSync(dpy, False);
    b0 = written();
    t0 = now();
    c0 = cpu();
    for (int i = 0; i < frames; i++) {
        draw(i);
        gl.SwapBuffers(dpy, win);
    }
    XSync(dpy, False);
    t1 = now();
    c1 = cpu();
    gl.GetIntegerv(GL_ALPHA_BITS, &alpha);
    printf("fps=%.1f cpu_ms_per_frame=%.2f bytes_per_frame=%llu alpha_bits=%d renderer=%s",
           frames / (t1 - t0), (c1 - c0) * 1000.0 / frames, (written() - b0) / (unsigned)frames,
           alpha, (const char *)gl.GetString(GL_RENDERER));
    print_libs();
    printf("\n");
    gl.MakeCurrent(dpy, None, NULL);
    gl.DestroyContext(dpy, ctx);
    XFree(vis);
    XCloseDisplay(dpy);
    return 0;
}
