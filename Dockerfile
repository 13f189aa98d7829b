# The emulator of the service (API and S3) as an image:
#   docker build -t altostratus-emulator .
#   docker run -p 127.0.0.1:8787:8787 -p 127.0.0.1:8788:8788 altostratus-emulator
# Every flag of `altostratus emulator` is set by its ALTOSTRATUS_EMULATOR_* variable
# (`docker run -e ALTOSTRATUS_EMULATOR_TIME_SCALE=10 ...`) or given after the image's name.
#
# BASE_IMAGE: any image with Python 3.10 or later as `python3` and its `venv` module.
# PIP_OPTIONS: more options for pip. A machine without PyPI puts the wheels of the dependencies
# (and of setuptools, which builds the package) in the context's folder `wheels/` and gives
# PIP_OPTIONS="--no-index --find-links /src".
ARG BASE_IMAGE=python:3.12-slim

FROM ${BASE_IMAGE} AS build
ARG PIP_OPTIONS=
# The dependencies first, from pyproject.toml alone (the package and its README left empty):
# their layer is reused until pyproject.toml changes. `wheel[s]` copies the folder's wheels when
# it is there.
COPY pyproject.toml wheel[s] /src/
RUN python3 -m venv /opt/altostratus \
    && mkdir /src/sdk && touch /src/README.md \
    && /opt/altostratus/bin/python -m pip install --no-cache-dir $PIP_OPTIONS "/src[emulator]" \
    && /opt/altostratus/bin/python -m pip uninstall --yes --quiet altostratus
COPY README.md /src/
COPY sdk/altostratus /src/sdk/altostratus
RUN /opt/altostratus/bin/python -m pip install --no-cache-dir --no-deps $PIP_OPTIONS /src \
    && /opt/altostratus/bin/python -m pip uninstall --yes --quiet setuptools pip

FROM ${BASE_IMAGE}
# Everything but the package comes first, so that a change of the package rebuilds one layer.
RUN useradd --system --uid 10001 --user-group --home-dir /var/lib/altostratus --create-home \
        altostratus \
    && mkdir /var/lib/altostratus/state && chown altostratus:altostratus /var/lib/altostratus/state
# Inside a container the emulator listens on every interface; the URLs it reports name
# 127.0.0.1 (publish the ports as they are: -p 8787:8787 -p 8788:8788; a compose service sets
# its own name); the host reaches the admin endpoints through Docker's bridge, from a private
# network; the state is kept on the volume.
ENV PATH=/opt/altostratus/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    ALTOSTRATUS_EMULATOR_HOST=0.0.0.0 \
    ALTOSTRATUS_EMULATOR_PUBLIC_HOST=127.0.0.1 \
    ALTOSTRATUS_EMULATOR_ADMIN_FROM="10.0.0.0/8 172.16.0.0/12 192.168.0.0/16" \
    ALTOSTRATUS_EMULATOR_STATE_DIR=/var/lib/altostratus/state
VOLUME /var/lib/altostratus
EXPOSE 8787 8788
USER altostratus
WORKDIR /var/lib/altostratus
HEALTHCHECK --interval=2s --timeout=3s --start-period=30s --retries=3 \
    CMD ["python3", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/_emulator/health' % os.environ.get('ALTOSTRATUS_EMULATOR_PORT', '8787'), timeout=2)"]
ENTRYPOINT ["altostratus", "emulator"]
COPY --from=build /opt/altostratus /opt/altostratus
