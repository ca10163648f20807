// Opening an existing trace file for reading, with the checks every reader shares: the file
// exists, is an SQLite database, carries the fencescope format marker, and has a schema version
// this build knows. Each refusal is a core::Error naming the file and what was found.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "core/store/sqlite_db.h"

namespace core::store {

// Opens `path` read-only and validates it (see above).
Database OpenTrace(const std::filesystem::path& path);

// The same checks for a trace file's bytes held in memory (`label` names it in messages): a
// read-only in-memory database over a copy of them (Database::FromImage).
Database OpenTraceImage(std::string_view image, const std::string& label);

// The `meta` table as a map.
std::map<std::string, std::string> ReadMeta(Database& db);

// What fencescope reads besides its own trace databases, named in every message that refuses a
// file (a file that is not a trace here, one no importer reads in importers/import_file.cpp).
// Keep it in step with importers::ByteImporterFor and the import dispatch.
std::string_view ImportableFormats();

// True when the file starts with the SQLite header (used to tell a trace from an importable file).
bool LooksLikeSqlite(const std::filesystem::path& path);

}  // namespace core::store
