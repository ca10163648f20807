#include "app/gui/platform/window.h"

#include <algorithm>
#include <cstdint>

#define GLFW_INCLUDE_NONE
#include <GL/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <stb/stb_image_write.h>

#include "app/gui/widgets/palette.h"
#include "core/model/error.h"

namespace app::gui::platform {

struct Window::Impl {
  GLFWwindow* window = nullptr;
  std::string ini_path;  // ImGui keeps the pointer; this string outlives the context
  std::vector<std::string> dropped;
};

namespace {

void OnDrop(GLFWwindow* window, int count, const char** paths) {
  auto* dropped = static_cast<std::vector<std::string>*>(glfwGetWindowUserPointer(window));
  for (int i = 0; i < count; ++i) dropped->emplace_back(paths[i]);
}

void OnGlfwError(int code, const char* description) {
  (void)code;
  (void)description;  // reported through the exception thrown by the failing call
}

}  // namespace

void LoadFonts(float dpi_scale) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  const char* kFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
  const float size = 15.0f * dpi_scale;
  if (FILE* f = std::fopen(kFont, "rb")) {
    std::fclose(f);
    io.Fonts->AddFontFromFileTTF(kFont, size);
  } else {
    ImFontConfig config;
    config.SizePixels = 13.0f * dpi_scale;
    io.Fonts->AddFontDefault(&config);
  }
}

Window::Window(const WindowOptions& options) : m_impl(new Impl) {
  glfwSetErrorCallback(OnGlfwError);
  if (!glfwInit()) {
    delete m_impl;
    throw core::Error(
        "cannot open a window: GLFW could not connect to a display "
        "(set DISPLAY, or run under xvfb-run for screenshots)");
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  glfwWindowHint(GLFW_VISIBLE, options.visible ? GLFW_TRUE : GLFW_FALSE);
  m_impl->window =
      glfwCreateWindow(options.width, options.height, options.title.c_str(), nullptr, nullptr);
  if (!m_impl->window) {
    glfwTerminate();
    delete m_impl;
    throw core::Error("cannot open a window: no OpenGL 3.0 context on this display");
  }
  glfwMakeContextCurrent(m_impl->window);
  glfwSwapInterval(1);
  glfwSetWindowUserPointer(m_impl->window, &m_impl->dropped);
  glfwSetDropCallback(m_impl->window, OnDrop);

  float xscale = 1.0f, yscale = 1.0f;
  glfwGetWindowContentScale(m_impl->window, &xscale, &yscale);
  m_dpi_scale = std::clamp(std::max(xscale, yscale), 1.0f, 4.0f);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  m_impl->ini_path = options.ini_path.string();
  io.IniFilename = m_impl->ini_path.empty() ? nullptr : m_impl->ini_path.c_str();
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  widgets::ApplyTheme(m_dpi_scale);
  LoadFonts(m_dpi_scale);
  ImGui_ImplGlfw_InitForOpenGL(m_impl->window, true);
  ImGui_ImplOpenGL3_Init("#version 130");
}

Window::~Window() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(m_impl->window);
  glfwTerminate();
  delete m_impl;
}

bool Window::ShouldClose() const {
  return glfwWindowShouldClose(m_impl->window) != 0;
}
void Window::RequestClose() {
  glfwSetWindowShouldClose(m_impl->window, GLFW_TRUE);
}

void Window::BeginFrame(double wait_seconds) {
  if (wait_seconds > 0)
    glfwWaitEventsTimeout(wait_seconds);
  else
    glfwPollEvents();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
}

void Window::Render() {
  ImGui::Render();
  int width = 0, height = 0;
  glfwGetFramebufferSize(m_impl->window, &width, &height);
  glViewport(0, 0, width, height);
  glClearColor(0.08f, 0.08f, 0.09f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void Window::SwapBuffers() {
  glfwSwapBuffers(m_impl->window);
}

void Window::WriteScreenshot(const std::filesystem::path& png) const {
  int width = 0, height = 0;
  glfwGetFramebufferSize(m_impl->window, &width, &height);
  std::vector<uint8_t> pixels(static_cast<size_t>(width) * height * 4);
  glFinish();
  glReadBuffer(GL_BACK);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  // OpenGL's rows go bottom-up; PNG's top-down.
  stbi_flip_vertically_on_write(1);
  if (!stbi_write_png(png.string().c_str(), width, height, 4, pixels.data(), width * 4)) {
    throw core::Error("cannot write screenshot " + png.string());
  }
}

std::vector<std::string> Window::TakeDroppedFiles() {
  std::vector<std::string> files;
  files.swap(m_impl->dropped);
  return files;
}

}  // namespace app::gui::platform
