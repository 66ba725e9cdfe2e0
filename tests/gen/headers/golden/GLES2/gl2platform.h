#ifndef __gl2platform_h_
#define __gl2platform_h_

/* OpenGL ES 2.0 platform definitions: the call and entry macros of GLES2/ headers,
 * from the Khronos platform header. */
#include <KHR/khrplatform.h>

#ifndef GL_APICALL
#define GL_APICALL KHRONOS_APICALL
#endif
#ifndef GL_APIENTRY
#define GL_APIENTRY KHRONOS_APIENTRY
#endif

#endif
