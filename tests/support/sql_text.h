// Query results as text, for tests that compare what SQL reads from a trace with an answer
// worked out by hand.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace test_support {

// Every row of `sql` over the trace `db`: cells joined by '|', each row ending in '\n'.
std::string RowsText(const std::filesystem::path& db, const std::string& sql);
// The first cell of the first row of `sql`; "<none>" when there is no row.
std::string FirstCell(const std::filesystem::path& db, const std::string& sql);
// Runs `sql` (statements separated by ';') on the database file `db`, as a user editing a trace
// with sqlite3 would; returns SQLite's error message, empty when it ran.
std::string ExecSql(const std::filesystem::path& db, const std::string& sql);
// `text` split into its lines (without their '\n'), e.g. what a checking script printed.
std::vector<std::string> Lines(const std::string& text);

}  // namespace test_support
