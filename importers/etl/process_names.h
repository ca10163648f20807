// Process names from the Microsoft-Windows-Kernel-Process provider: ProcessStart (id 1) and
// ProcessRundown (id 15, the DC_Start-style list of processes alive when the session began).
// Both carry ProcessID first and the process's ImageName (a NUL-terminated UTF-16 path) after a
// version-dependent run of fixed fields:
//   id 1 v0                ProcessID u32, CreateTime u64, ParentProcessID u32, SessionID u32
//   id 1 v1, v2            ... SessionID u32, Flags u32
//   id 1 v3, id 15 v1      ProcessID u32, ProcessSequenceNumber u64, CreateTime u64,
//                          ParentProcessID u32, ParentProcessSequenceNumber u64, SessionID u32,
//                          Flags u32, ProcessTokenElevationType u32, ProcessTokenIsElevated u32,
//                          MandatoryLabel SID (8 + 4 * SubAuthorityCount bytes)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace importers::etl {

inline constexpr std::string_view kKernelProcessProvider = "22fb2cd6-0e7b-422b-a0c7-2fad1fd0e716";

struct ProcessName {
  uint32_t pid = 0;
  std::string image;  // the file name of ImageName, without its directory
};

// The classic kernel logger's Process events (SYSTEM_TRACE_HEADER, group 3: Start 1, DCStart 3,
// DCEnd 4), by the header's version (pointer-sized fields follow the header's pointer size):
//   v2      UniqueProcessKey ptr, ProcessId u32, ParentId u32, SessionId u32, ExitStatus i32,
//           UserSID, ImageFileName (ANSI, NUL-terminated), CommandLine (UTF-16)
//   v3      ... ExitStatus i32, DirectoryTableBase ptr, UserSID, ImageFileName, ...
//   v4, v5  ... DirectoryTableBase ptr, Flags u32, UserSID, ImageFileName, ...
// UserSID is 4 zero bytes when absent, else a TOKEN_USER (two pointers) and the SID
// (8 + 4 * SubAuthorityCount bytes).
bool DecodeKernelProcessName(uint8_t type, uint16_t version, uint8_t pointer_size,
                             std::string_view payload, ProcessName* out);

// Decodes a Kernel-Process ProcessStart / ProcessRundown payload; false for other ids, versions
// it does not know, or a payload too short for its layout.
bool DecodeProcessName(uint16_t id, uint8_t version, std::string_view payload, ProcessName* out);

}  // namespace importers::etl
