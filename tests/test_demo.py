import pytest

from accelerator import demo

def test_bids_are_deterministic_and_nexmark_shaped():
    first, again = list(demo.bids(500)), list(demo.bids(500))
    assert first == again
    assert all(b.auction >= 1000 and b.bidder >= 1000 and b.price > 0 for b in first)
    sizes = [len(b.to_json()) for b in first]
    assert 180 < sum(sizes) / len(sizes) < 320


@pytest.mark.services
def test_demo_job_delivers_every_expected_row(kafka_broker, flink_cluster):
    source, expected = demo.load(kafka_broker, 3000)
    result = demo.run(kafka_broker, flink_cluster, source, expected)
    assert expected == sum(1 for b in demo.bids(3000) if b.auction % 3 == 0)
    assert result.rows_out == expected and result.seconds > 0
