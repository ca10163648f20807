# fencescope_write_if_changed(PATH TEXT): writes TEXT to PATH unless it already holds it, so that
# what depends on PATH is not rebuilt for nothing. Included by the scripts run at build time.
function(fencescope_write_if_changed path text)
  set(old "")
  if(EXISTS "${path}")
    file(READ "${path}" old)
  endif()
  if(NOT old STREQUAL text)
    file(WRITE "${path}" "${text}")
  endif()
endfunction()
