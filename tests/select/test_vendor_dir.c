/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: vendor discovery over directories built by the test. One vendor found in two
 * places is one vendor (fields merged, first declaration wins); base order is priority, then
 * first appearance; broken manifests are skipped; libglvnd's __EGL_VENDOR_LIBRARY_FILENAMES and
 * __EGL_VENDOR_LIBRARY_DIRS decide the EGL list exactly as libglvnd would, and do not restrict
 * the GLX list.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glmux_test.h"
#include "select/select.h"
#include "tree.h"

static const char *names(const struct glmux_vendor_list *l)
{
    static char buf[256];

    buf[0] = '\0';
    for (size_t i = 0; i < l->count; i++)
        snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", i ? "," : "",
                 l->vendors[i].name);
    return buf;
}

int main(void)
{
    char root[200], d1[220], d2[220], var[1024];
    struct glmux_vendor_list l;
    const struct glmux_vendor *v;

    unsetenv("__EGL_VENDOR_LIBRARY_FILENAMES");
    unsetenv("__EGL_VENDOR_LIBRARY_DIRS");
    snprintf(root, sizeof(root), "%s", tree_new("select-vendors"));
    snprintf(d1, sizeof(d1), "%s/one", root);
    snprintf(d2, sizeof(d2), "%s/two", root);
    tree_file(root, "one/mesa.json",
              "{\"file_format_version\": \"1.0.0\", \"ICD\": {\"library_path\": "
              "\"libEGL_mesa.so.0\"}, \"vendor\": {\"name\": \"mesa\", \"drivers\": [\"i915\"]}}");
    tree_file(root, "one/10_nvidia.json",
              "{\"file_format_version\": \"1.0.0\", \"ICD\": {\"library_path\": "
              "\"libEGL_nvidia.so.0\"}}");
    tree_file(root, "one/30_foo.json",
              "{\"file_format_version\": \"1.0.0\", \"ICD\": {\"library_path\": "
              "\"libEGL_foo.so.0\"}}");
    tree_file(root, "one/README", "not a manifest");
    tree_file(root, "two/50_mesa.json",
              "{\"file_format_version\": \"1.0.0\", \"ICD\": {\"library_path\": "
              "\"/elsewhere/libEGL_mesa.so.0\"}}");
    tree_file(root, "two/amd.json",
              "{\"file_format_version\": \"1.0.0\", \"ICD\": {\"library_path\": "
              "\"libEGL_amd.so.0\"}, \"vendor\": {\"name\": \"amd\", \"priority\": 40, "
              "\"glx_library_path\": \"libGLX_amd.so.0\", \"drivers\": [\"amdgpu\"]}}");
    tree_file(root, "two/foo.json",
              "{\"file_format_version\": \"1.0.0\", \"vendor\": {\"name\": \"foo\", "
              "\"glx_library_path\": \"libGLX_foo.so.0\", \"drivers\": [\"foodrm\"], "
              "\"priority\": 60}}");
    tree_file(root, "two/broken.json", "{\"file_format_version\": ");

    snprintf(var, sizeof(var), "%s:%s/missing:%s", d1, root, d2);
    setenv("GLMUX_VENDOR_DIRS", var, 1);
    CHECK(glmux_vendor_list_discover(&l));
    CHECK_MSG(strcmp(names(&l), "nvidia,amd,mesa,foo") == 0, "%s", names(&l));
    CHECK(!l.libglvnd_override && l.n_dirs == 3 && l.n_rejected == 1);
    v = glmux_vendor_list_find(&l, "mesa");
    CHECK(v != NULL && v->n_manifests == 2 && strcmp(v->egl_library, "libEGL_mesa.so.0") == 0);
    CHECK(v->has_drivers && v->n_drivers == 1 && v->priority == 50 && v->glx_library == NULL);
    v = glmux_vendor_list_find(&l, "foo");
    /* EGL library from the first file, GLX library, drivers and declared priority from the second. */
    CHECK(v != NULL && strcmp(v->egl_library, "libEGL_foo.so.0") == 0);
    CHECK(strcmp(v->glx_library, "libGLX_foo.so.0") == 0 && v->has_drivers);
    CHECK(v->priority == 60 && v->priority_declared);
    v = glmux_vendor_list_find(&l, "nvidia");
    CHECK(v != NULL && !v->has_drivers && v->priority == 10);
    CHECK(glmux_vendor_list_find(&l, "none") == NULL);
    glmux_vendor_list_clear(&l);

    /* Directory list order decides which declaration wins. */
    snprintf(var, sizeof(var), "%s:%s", d2, d1);
    setenv("GLMUX_VENDOR_DIRS", var, 1);
    CHECK(glmux_vendor_list_discover(&l));
    v = glmux_vendor_list_find(&l, "mesa");
    CHECK(strcmp(v->egl_library, "/elsewhere/libEGL_mesa.so.0") == 0 && v->has_drivers);
    glmux_vendor_list_clear(&l);

    /* __EGL_VENDOR_LIBRARY_FILENAMES: exactly these files, in this order. */
    snprintf(var, sizeof(var), "%s/amd.json:%s/10_nvidia.json", d2, d1);
    setenv("__EGL_VENDOR_LIBRARY_FILENAMES", var, 1);
    CHECK(glmux_vendor_list_discover(&l));
    CHECK_MSG(strcmp(names(&l), "amd,nvidia") == 0, "%s", names(&l));
    CHECK(l.libglvnd_override && strcmp(l.override_variable, "__EGL_VENDOR_LIBRARY_FILENAMES") == 0);
    glmux_vendor_list_clear(&l);
    /* ...which does not restrict GLX. */
    CHECK(glmux_vendor_list_discover_glx(&l));
    CHECK(!l.libglvnd_override && l.count == 4);
    glmux_vendor_list_clear(&l);
    unsetenv("__EGL_VENDOR_LIBRARY_FILENAMES");

    /* __EGL_VENDOR_LIBRARY_DIRS: libglvnd's order, strcmp within each directory. */
    setenv("__EGL_VENDOR_LIBRARY_DIRS", d1, 1);
    CHECK(glmux_vendor_list_discover(&l));
    CHECK_MSG(strcmp(names(&l), "nvidia,foo,mesa") == 0, "%s", names(&l));
    CHECK(l.libglvnd_override);
    glmux_vendor_list_clear(&l);
    unsetenv("__EGL_VENDOR_LIBRARY_DIRS");

    /* Without GLMUX_VENDOR_DIRS: the compiled-in directories, the vendor directory among them. */
    unsetenv("GLMUX_VENDOR_DIRS");
    CHECK(glmux_vendor_list_discover(&l));
    /* ${sysconfdir}'s directory, the vendor directory, ${datadir}'s, and Debian's system pair
     * after them when the prefix is not /usr (GLMUX_EGL_VENDOR_DIRS). */
    CHECK((l.n_dirs == 3 || l.n_dirs == 5) &&
          (strcmp(l.dirs[1], GLMUX_VENDOR_DIR) == 0 || strcmp(l.dirs[2], GLMUX_VENDOR_DIR) == 0));
    CHECK(strstr(l.dirs[0], "/glvnd/egl_vendor.d") != NULL);
    glmux_vendor_list_clear(&l);

    tree_remove(root);
    return 0;
}
