# The bot with the rules engine and the computer players compiled by mypyc (KOZEL_COMPILE=1).
FROM python:3.11-slim AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY bot bot
COPY render render
COPY migrations migrations
RUN KOZEL_COMPILE=1 pip wheel --no-cache-dir --wheel-dir /wheels .

FROM python:3.11-slim
RUN useradd --create-home --uid 1000 kozel && mkdir /data && chown kozel /data
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
USER kozel
WORKDIR /home/kozel
ENV DATABASE_PATH=/data/kozel.sqlite3 \
    PYTHONUNBUFFERED=1
VOLUME /data
CMD ["python", "-m", "bot", "telegram"]
