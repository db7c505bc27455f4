# The cardroom service image: the API (`cardroom serve`) and the projection worker (`cardroom project`).
# Copies every package pyproject.toml builds (tests/test_dockerfile.py checks it against the imports).
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY domain ./domain
COPY projections ./projections
COPY api ./api
COPY infra ./infra
COPY bots ./bots
COPY managers ./managers
RUN pip install --no-cache-dir .
ENV CARDROOM_VAR_DIR=/var/lib/cardroom
EXPOSE 8000
CMD ["cardroom", "serve", "--host", "0.0.0.0", "--port", "8000"]
