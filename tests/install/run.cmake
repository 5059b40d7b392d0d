# Installs commscope into a scratch prefix, then configures, builds and runs a consumer
# project that only knows `find_package(commscope)`.
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/lib -G Ninja
                  -DCMAKE_CXX_COMPILER=${CXX} -DCOMMSCOPE_BUILD_TESTS=OFF
                  -DCOMMSCOPE_BUILD_BENCHMARKS=OFF -DCOMMSCOPE_BUILD_TOOLS=OFF
                  -DCMAKE_INSTALL_PREFIX=${WORK_DIR}/prefix
                COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} --install ${WORK_DIR}/lib COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/consumer -G Ninja
                  -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
                COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/consumer COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${WORK_DIR}/consumer/consumer COMMAND_ERROR_IS_FATAL ANY)
