# Locust example: what a QA user does most on Assay (lists and the dashboard's data).
from locust import HttpUser, between, task


class AssayReader(HttpUser):
    wait_time = between(1, 3)

    @task(3)
    def test_runs(self):
        self.client.get("/v1/test-runs")

    @task(2)
    def builds(self):
        self.client.get("/v1/builds")

    @task(1)
    def health(self):
        self.client.get("/healthz")
