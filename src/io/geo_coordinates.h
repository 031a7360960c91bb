// SPDX-License-Identifier: MIT
// The range of GEO coordinates, which the readers of instances check (io/tsplib.cpp for files,
// io/array_instance.cpp for Python's arrays): TSPLIB's GEO coordinates are latitude and longitude
// in DDD.MM form, degrees and then minutes as the decimals (45.30 is 45 degrees 30 minutes: see
// tsplib::geo_radians). One off the globe is a typo, or coordinates that are not GEO at all.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>

#include "core/error.h"
#include "core/number_text.h"

namespace formica::io {

/// Why `coordinate`, a latitude (or a longitude), is off the globe: "latitude 95 is beyond
/// +-90 degrees ..."; "" when it is on it.
inline std::string geo_coordinate_problem(double coordinate, bool latitude) {
  const double whole = std::trunc(coordinate);
  const double degrees = whole + 5.0 * (coordinate - whole) / 3.0;  // as tsplib::geo_radians reads it
  const double limit = latitude ? 90.0 : 180.0;
  if (std::fabs(degrees) <= limit + 1e-9) return "";
  char read[32];  // what the minutes make of it: 89.99 is 90.65 degrees
  std::snprintf(read, sizeof read, "%.2f degrees, ", degrees);
  return concat(latitude ? "latitude " : "longitude ", number_text(coordinate), " is ",
                degrees == coordinate ? std::string() : read, "beyond +-", limit,
                " degrees (GEO coordinates are latitude and longitude in DDD.MM: degrees, then minutes)");
}

}  // namespace formica::io
