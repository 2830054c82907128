# Cross build for 32-bit Arm Linux (armv7, hard float), tests run under qemu-user:
#   apt-get install gcc-arm-linux-gnueabihf qemu-user
#   cmake -S . -B build-armhf -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-armhf.cmake
#   cmake --build build-armhf -j2 && ctest --test-dir build-armhf --output-on-failure
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(TL_CROSS_TRIPLE arm-linux-gnueabihf)

if(NOT CMAKE_C_COMPILER)
    set(CMAKE_C_COMPILER ${TL_CROSS_TRIPLE}-gcc)
endif()
set(CMAKE_FIND_ROOT_PATH /usr/${TL_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# ctest runs every test binary (and the CLI under test) through this.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-arm -L /usr/${TL_CROSS_TRIPLE})
