// Bringing a file's bytes into the page cache before a benchmark times what reads it.
#pragma once

#include <cstdint>
#include <filesystem>

namespace app::cli {

// Reads `path` through once, discarding the bytes, so that a timed run after it reads the file
// from memory: phases of a benchmark then start alike, whatever an earlier phase or the
// machine's reclaim of idle pages left in the cache. Returns the bytes read; throws core::Error
// naming the file when it cannot be read.
uint64_t ReadIntoPageCache(const std::filesystem::path& path);

}  // namespace app::cli
