# The desktop window: Dear ImGui from Debian's libimgui-dev, its GLFW and OpenGL3 backends
# compiled from the sources the package ships, GLFW and OpenGL.
find_package(OpenGL REQUIRED)
pkg_check_modules(GLFW3 REQUIRED IMPORTED_TARGET glfw3)
find_library(IMGUI_LIBRARY NAMES imgui REQUIRED)
find_library(STB_LIBRARY NAMES stb REQUIRED)
find_path(IMGUI_INCLUDE_DIR imgui.h PATH_SUFFIXES imgui REQUIRED)
set(IMGUI_BACKEND_DIR /usr/share/doc/libimgui-dev/examples/backends CACHE PATH
    "Directory of the ImGui backend sources shipped by libimgui-dev")

add_library(fencescope_imgui_backends STATIC
  ${IMGUI_BACKEND_DIR}/imgui_impl_glfw.cpp
  ${IMGUI_BACKEND_DIR}/imgui_impl_opengl3.cpp)
target_include_directories(fencescope_imgui_backends SYSTEM PUBLIC
  ${IMGUI_INCLUDE_DIR} ${IMGUI_INCLUDE_DIR}/backends ${IMGUI_BACKEND_DIR})
target_link_libraries(fencescope_imgui_backends PUBLIC
  ${IMGUI_LIBRARY} ${STB_LIBRARY} PkgConfig::GLFW3 OpenGL::GL ${CMAKE_DL_LIBS})

file(GLOB_RECURSE FENCESCOPE_GUI_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/gui/*.cpp)
if(FENCESCOPE_GUI_SOURCES)
  add_library(fencescope_gui STATIC ${FENCESCOPE_GUI_SOURCES})
  target_include_directories(fencescope_gui PUBLIC ${CMAKE_SOURCE_DIR})
  target_link_libraries(fencescope_gui PUBLIC fencescope_cli fencescope_imgui_backends
                        fencescope_version)
  target_link_libraries(fencescope_command_line PUBLIC fencescope_gui)
else()
  target_sources(fencescope_command_line PRIVATE no_gui_entry.cpp)
endif()
