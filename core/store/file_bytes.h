// Reading a trace file's bytes without losing the locks SQLite holds on it.
//
// SQLite locks a database with POSIX record locks, which belong to the process, not to the file
// descriptor: closing *any* descriptor of the file drops every lock the process holds on it.
// A plain std::ifstream of a trace, opened and closed while another thread of the same process
// commits to it (the packed cache written in the background), silently releases that writer's
// locks, and another process then reads a half-written file or finds its journal "hot". These
// read through SQLite's own file layer, which keeps a descriptor open while locks remain.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

namespace core::store {

// The first `count` bytes of `path` (fewer when the file is shorter); nullopt when it cannot be
// opened.
std::optional<std::vector<unsigned char>> ReadFileHead(const std::filesystem::path& path,
                                                       size_t count);

// The whole file (empty when it cannot be opened).
std::vector<unsigned char> ReadWholeFile(const std::filesystem::path& path);

}  // namespace core::store
