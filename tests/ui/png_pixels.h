// A PNG written by `view --screenshot`, decoded for the window's tests.
#pragma once

#include <stb/stb_image.h>

#include <filesystem>
#include <vector>

namespace test_support {

// RGB bytes, row by row (empty when the file does not decode); `w` and `h` get its size.
inline std::vector<unsigned char> PngPixels(const std::filesystem::path& png, int* w, int* h) {
  int channels = 0;
  unsigned char* data = stbi_load(png.string().c_str(), w, h, &channels, 3);
  if (!data) return {};
  std::vector<unsigned char> pixels(data, data + static_cast<size_t>(*w) * *h * 3);
  stbi_image_free(data);
  return pixels;
}

}  // namespace test_support
