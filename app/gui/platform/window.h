// The desktop window: GLFW + OpenGL 3 + the ImGui GLFW/OpenGL3 backends, fonts scaled for the
// monitor's DPI, dropped files, and reading the frame back as a PNG (headless screenshots under
// Xvfb). One Window per process; it owns the ImGui context.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace app::gui::platform {

struct WindowOptions {
  int width = 1600;
  int height = 1000;
  std::string title = "fencescope";
  bool visible = true;
  // ImGui's layout file (imgui.ini); empty disables saving (screenshots, tests).
  std::filesystem::path ini_path;
};

class Window {
 public:
  // Throws core::Error when GLFW or OpenGL cannot be initialised (e.g. no display).
  explicit Window(const WindowOptions& options);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  bool ShouldClose() const;
  void RequestClose();
  // Polls events (blocking up to `wait_seconds` when > 0, so an idle window uses no CPU) and
  // starts an ImGui frame.
  void BeginFrame(double wait_seconds);
  // Renders the ImGui frame into the back buffer. Call SwapBuffers() after an optional capture.
  void Render();
  void SwapBuffers();
  // Reads the back buffer just rendered and writes it as PNG. Throws core::Error on failure.
  void WriteScreenshot(const std::filesystem::path& png) const;
  // Files dropped onto the window since the last call.
  std::vector<std::string> TakeDroppedFiles();
  float dpi_scale() const { return m_dpi_scale; }

 private:
  struct Impl;
  Impl* m_impl;
  float m_dpi_scale = 1.0f;
};

// Builds ImGui's fonts for `dpi_scale` (DejaVu Sans from the system when present, else ImGui's
// built-in font). Used by the window and by headless frames.
void LoadFonts(float dpi_scale);

}  // namespace app::gui::platform
