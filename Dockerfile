# The Arbiter API image used by docker-compose.yml.
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY domain ./domain
COPY service ./service
COPY projections ./projections
RUN pip install --no-cache-dir .
ENV ARBITER_DATA_DIR=/data
EXPOSE 8000
CMD ["arbiter", "serve", "--host", "0.0.0.0", "--port", "8000", "--workers", "2"]
