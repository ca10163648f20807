# Run after fencescope is linked (app/CMakeLists.txt): writes the version the binary itself prints
# (`fencescope --version`, first line) to OUTPUT_TXT, rewritten only when it changed. The package
# and its changelog read that file, so the .deb's version is the version of the binary inside it.
# Inputs: BINARY, OUTPUT_TXT.
include("${CMAKE_CURRENT_LIST_DIR}/write_if_changed.cmake")
execute_process(COMMAND "${BINARY}" --version OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out MATCHES "^fencescope ([^\n]+)")
  message(FATAL_ERROR "${BINARY} --version failed (${rc}): ${out}")
endif()
set(version "${CMAKE_MATCH_1}")
fencescope_write_if_changed("${OUTPUT_TXT}" "${version}")
