# Cross build for 64-bit Arm Linux, tests run under qemu-user:
#   apt-get install gcc-aarch64-linux-gnu qemu-user
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64.cmake
#   cmake --build build-aarch64 -j2 && ctest --test-dir build-aarch64 --output-on-failure
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(TL_CROSS_TRIPLE aarch64-linux-gnu)

if(NOT CMAKE_C_COMPILER)
    set(CMAKE_C_COMPILER ${TL_CROSS_TRIPLE}-gcc)
endif()
set(CMAKE_FIND_ROOT_PATH /usr/${TL_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# ctest runs every test binary (and the CLI under test) through this.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/${TL_CROSS_TRIPLE})
