# Installs commscope into a scratch prefix, then configures, builds and runs a consumer
# project that only knows `find_package(commscope)`.
#   -DSOURCE_DIR -DWORK_DIR -DCONSUMER_DIR -DCXX
#   -DMLIR_DIR -DFILECHECK: commscope with its MLIR component; the consumer is then
#     pld-opt, run on its input.mlir, whose CHECK lines FileCheck matches. A consumer of
#     the generic library alone is then configured against the same install with MLIR
#     out of reach: only the mlir component needs it.
file(REMOVE_RECURSE ${WORK_DIR})
if(MLIR_DIR)
  set(with_mlir -DCOMMSCOPE_WITH_MLIR=ON -DMLIR_DIR=${MLIR_DIR})
else()
  set(with_mlir -DCOMMSCOPE_WITH_MLIR=OFF)
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/lib -G Ninja
                  -DCMAKE_CXX_COMPILER=${CXX} -DCOMMSCOPE_BUILD_TESTS=OFF
                  -DCOMMSCOPE_BUILD_BENCHMARKS=OFF -DCOMMSCOPE_BUILD_TOOLS=OFF ${with_mlir}
                  -DCMAKE_INSTALL_PREFIX=${WORK_DIR}/prefix
                COMMAND_ERROR_IS_FATAL ANY)
# The libraries to install: the separately compiled core, and the MLIR ones if asked.
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/lib COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} --install ${WORK_DIR}/lib COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/consumer -G Ninja
                  -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
                COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/consumer COMMAND_ERROR_IS_FATAL ANY)
if(NOT MLIR_DIR)
  execute_process(COMMAND ${WORK_DIR}/consumer/consumer COMMAND_ERROR_IS_FATAL ANY)
  execute_process(COMMAND ${WORK_DIR}/consumer/consumer_separate COMMAND_ERROR_IS_FATAL ANY)
  return()
endif()
execute_process(COMMAND ${WORK_DIR}/consumer/pld-opt ${CONSUMER_DIR}/input.mlir
                        --commscope-materialize --commscope-verify
                COMMAND ${FILECHECK} ${CONSUMER_DIR}/input.mlir
                COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/install/consumer
                  -B ${WORK_DIR}/generic -G Ninja -DCMAKE_CXX_COMPILER=${CXX}
                  -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_DISABLE_FIND_PACKAGE_MLIR=ON
                COMMAND_ERROR_IS_FATAL ANY)
message("mlir consumer: ok")
