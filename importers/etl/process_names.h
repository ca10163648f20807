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

// Decodes a Kernel-Process ProcessStart / ProcessRundown payload; false for other ids, versions
// it does not know, or a payload too short for its layout.
bool DecodeProcessName(uint16_t id, uint8_t version, std::string_view payload, ProcessName* out);

}  // namespace importers::etl
