# colorit in a container: docker build -t colorit . && docker run --rm colorit
# The web page: docker run --rm -p 8000:8000 colorit serve --host 0.0.0.0
# Only wheels are installed (numpy, numba/llvmlite, pillow, matplotlib and the web
# libraries have them for Linux x86-64 and arm64), so the slim image needs no compiler.
ARG BASE_IMAGE=python:3.11-slim
FROM ${BASE_IMAGE}

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    NUMBA_CACHE_DIR=/opt/colorit/numba-cache

# Installed from a throwaway copy of the source, and warmed up from another folder, so
# the kernels cached are those of the installed package (not of a ./colorit source tree).
COPY pyproject.toml README.md /tmp/colorit-src/
COPY colorit /tmp/colorit-src/colorit
# Compile the kernels into NUMBA_CACHE_DIR now, so a run starts at once; any user
# (docker run -u ...) may load them, and recompile them there if the CPU differs.
RUN pip install --only-binary=numpy,numba,llvmlite,pillow,matplotlib,contourpy,kiwisolver,pydantic-core "/tmp/colorit-src[pictures,web]" \
    && rm -rf /tmp/colorit-src \
    && cd / \
    && python -m colorit.warmup \
    && chmod -R a+rwX "$NUMBA_CACHE_DIR"

COPY demofiles /demofiles
RUN chmod a+rwx /demofiles

WORKDIR /work
EXPOSE 8000
ENTRYPOINT ["colorit"]
CMD ["/demofiles/sample.csv", "/demofiles/sample-result.csv"]
