// A test fixture for the Chrome JSON import tests: writes a JSON text to a scratch file, imports
// it through importers::ImportFile, and reads results back with SQL.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/store/query.h"
#include "importers/import_file.h"
#include "tests/support/test_support.h"

class ChromeJsonImport : public ::testing::Test {
 protected:
  std::filesystem::path Import(const std::string& json, importers::ImportOptions options = {}) {
    const std::filesystem::path input = m_dir / "input.json";
    std::ofstream(input, std::ios::binary) << json;
    const std::filesystem::path db = m_dir / "trace.db";
    importers::ImportFile(input, db, options);
    return db;
  }
  std::vector<std::vector<std::string>> Rows(const std::filesystem::path& db,
                                             const std::string& sql) {
    return core::store::RunQuery(db, sql).rows;
  }
  // The first column of the first row, or "<none>".
  std::string One(const std::filesystem::path& db, const std::string& sql) {
    auto rows = Rows(db, sql);
    return rows.empty() || rows[0].empty() ? "<none>" : rows[0][0];
  }
  std::string Problem(const std::filesystem::path& db, const std::string& name) {
    return One(db, "SELECT count FROM import_problems WHERE name = '" + name + "'");
  }
  test_support::ScratchDir m_dir;
};
