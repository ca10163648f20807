# Writes the Debian changelog of the package (one entry: this build's version) compressed as
# Debian wants it (gzip -9n). Inputs: SOURCE_DIR, VERSION_FILE, MAINTAINER, OUTPUT.
file(READ "${VERSION_FILE}" version)
string(STRIP "${version}" version)
set(date "")
find_program(GIT_EXECUTABLE git)
if(GIT_EXECUTABLE)
  execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${SOURCE_DIR}" log -1 --format=%aD
                  OUTPUT_VARIABLE date OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()
if(NOT date)
  string(TIMESTAMP date "%a, %d %b %Y %H:%M:%S +0000" UTC)
endif()
get_filename_component(dir "${OUTPUT}" DIRECTORY)
set(text "fencescope (${version}) unstable; urgency=medium

  * Built from the fencescope repository; its git history holds the
    changes.

 -- ${MAINTAINER}  ${date}
")
file(WRITE "${dir}/changelog" "${text}")
find_program(GZIP gzip REQUIRED)
execute_process(COMMAND "${GZIP}" -9nf "${dir}/changelog" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gzip failed on ${dir}/changelog")
endif()
