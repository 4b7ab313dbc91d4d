# colorit in a container: the command line (solving the boards in a mounted folder by
# default) and the web page, with the numba kernels compiled while the image is built.
#
# Docker:
#   docker build -t colorit .
#   docker run --rm -v "$PWD/demofiles:/demofiles" -u "$(id -u):$(id -g)" colorit
#       solves /demofiles/sample.csv into /demofiles/sample-result.csv (on the host)
#   docker run --rm -p 127.0.0.1:8000:8000 colorit serve --host 0.0.0.0
#       the web page at http://127.0.0.1:8000/ (Ctrl-C or docker stop ends it)
#   docker run --rm --memory 1g --cpus 1 ...   the default memory cap and the web
#       server's worker count follow these limits
# Podman takes the same arguments (podman build -t colorit ., podman run ...).
# Buildah alone (no container engine), with a base image of one's own:
#   buildah bud --build-arg BASE_IMAGE=localhost/colorit-base:bookworm -t colorit .
#
# Only wheels are installed (numpy, numba/llvmlite, pillow, matplotlib and the web
# libraries have them for Linux x86-64 and arm64), so the slim image needs no compiler.
ARG BASE_IMAGE=python:3.11-slim
FROM ${BASE_IMAGE}

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore \
    NUMBA_CACHE_DIR=/opt/colorit/numba-cache

# Installed from a throwaway copy of the source, and warmed up from another folder, so
# the kernels cached are those of the installed package (not of a ./colorit source tree).
COPY pyproject.toml README.md /tmp/colorit-src/
COPY colorit /tmp/colorit-src/colorit
# The libraries' own test suites (40 MB) are left out. The kernels are compiled into
# NUMBA_CACHE_DIR now, so a run starts at once; any user (docker run -u ...) may load
# them, and recompile them there if the CPU differs.
RUN pip install --only-binary=numpy,numba,llvmlite,pillow,matplotlib,contourpy,kiwisolver,pydantic-core "/tmp/colorit-src[pictures,web]" \
    && rm -rf /tmp/colorit-src \
    && cd / \
    && site="$(python -c 'import numpy, os; print(os.path.dirname(os.path.dirname(numpy.__file__)))')" \
    && find "$site" -depth -type d -name tests -exec rm -rf {} + \
    && python -m colorit.runtime.warmup \
    && chmod -R a+rwX "$NUMBA_CACHE_DIR"

COPY demofiles /demofiles
RUN chmod a+rwx /demofiles

WORKDIR /work
EXPOSE 8000
ENTRYPOINT ["colorit"]
CMD ["/demofiles/sample.csv", "/demofiles/sample-result.csv"]
