// Writing an output file safely: the one helper every command that writes a file goes through
// (TraceWriter for trace databases, reports, comparisons, exported JSON).
//
//  * The content goes to `<target>.tmp-<pid>` beside the target and is renamed over it only when
//    complete, so the target is either the old file or the new one, never half of either.
//  * An output that exists and is not a regular file (a device node, a FIFO, a directory, a
//    socket) is refused instead of being replaced by a regular file. A symbolic link is followed:
//    the file it points to is written and the link kept.
//  * Temporary files left by runs that were killed (`<target>.tmp-<pid>` whose process is gone)
//    are removed before a new one is made, so they never pile up; those of live processes stay.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

namespace core::store {

// Where a write to `output` lands: `output`, or for a symbolic link the file at the end of the
// chain of links. Throws core::Error when that exists and is not a regular file.
std::filesystem::path ResolveOutputTarget(const std::filesystem::path& output);

// Throws core::Error naming both paths when `output` is `input` (same path, or the same file
// through another name: a hard link, `./F` for `F`, a symbolic link). `what` names the input in
// the message, e.g. "input trace".
void CheckOutputIsNotInput(const std::filesystem::path& input,
                           const std::filesystem::path& output, std::string_view what);

// `<target>.tmp-<this pid>` (removed if present), after removing stale temporary files of
// `target` left by processes that no longer exist. `target` is a ResolveOutputTarget() result.
std::filesystem::path PrepareTemporaryFor(const std::filesystem::path& target);

// Syncs `temp` and renames it over `target`; on failure removes `temp` and throws core::Error.
void CommitTemporary(const std::filesystem::path& temp, const std::filesystem::path& target);

// The whole atomic write: resolves `output`, lets `write` fill the temporary file (returning
// false on failure) and commits it. Throws core::Error naming `output` on any failure.
void WriteFileAtomically(const std::filesystem::path& output,
                         const std::function<bool(const std::filesystem::path& temp)>& write);
void WriteFileAtomically(const std::filesystem::path& output, std::string_view content);

}  // namespace core::store
