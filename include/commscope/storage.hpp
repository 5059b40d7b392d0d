// Kept for one release so that an adapter that names a container policy still compiles:
// the library no longer reads `using storage` (its containers are std::vector, usable at
// run time and in constant evaluation alike). Remove the member; this header goes in the
// next release.
#pragma once

namespace commscope {

/// No longer read.
struct boost_storage {};
/// No longer read.
struct std_storage {};

} // namespace commscope
