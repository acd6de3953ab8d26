# Dragonhall: one image for every process (serve, projections, worker, worker --beat).
# Small (slim base, a virtual environment copied out of a build stage, no compiler), non-root
# (uid 10001), pinned (the base image's exact version; every dependency at the version of
# deploy/requirements.lock, which tests/unit/project/test_requirements_lock.py holds to pyproject.toml).
# deploy/compose.yaml runs it; docs/operations.md#containers says how.

FROM python:3.11.10-slim-bookworm AS build
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY deploy/requirements.lock ./deploy/requirements.lock
COPY api ./api
COPY domain ./domain
COPY dragonhall ./dragonhall
COPY infra ./infra
COPY projections ./projections
COPY services ./services
COPY wiring ./wiring
COPY workers ./workers
RUN python -m venv /opt/dragonhall \
    && /opt/dragonhall/bin/pip install --no-cache-dir --disable-pip-version-check \
        --constraint deploy/requirements.lock . \
    && find /opt/dragonhall -name '__pycache__' -prune -exec rm -rf {} +

FROM python:3.11.10-slim-bookworm
RUN useradd --system --uid 10001 --user-group --home-dir /var/lib/dragonhall --create-home dragonhall
COPY --from=build /opt/dragonhall /opt/dragonhall
ENV PATH=/opt/dragonhall/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    DRAGONHALL_DATA_DIR=/var/lib/dragonhall
USER 10001:10001
WORKDIR /var/lib/dragonhall
EXPOSE 8000
ENTRYPOINT ["dragonhall"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8000"]
