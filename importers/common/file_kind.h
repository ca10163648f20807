// What a file is that fencescope can neither open nor import, told from its first bytes, for the
// message that refuses it (`import`, `view`): "a PNG image", "an ELF executable or shared
// library", ... The name is never used: a renamed file is described by what it holds.
#pragma once

#include <string>
#include <string_view>

namespace importers {

// "a PNG image", "a PDF document", "text (starting \"hello\")", "binary data (starting 00 7f ...)",
// "an empty file".
std::string DescribeContent(std::string_view prefix);

}  // namespace importers
