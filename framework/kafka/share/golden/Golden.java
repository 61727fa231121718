// The hex strings of messages.test.ts, as kafka-clients writes them. Run: CP=$(ls ~/.cache/sluice/kafka-4.4.0/*.jar | tr '\n' ':'); javac -cp "$CP" -d /tmp Golden.java && java -cp "$CP:/tmp" Golden
import org.apache.kafka.common.message.*;
import org.apache.kafka.common.protocol.*;
import org.apache.kafka.common.Uuid;
import java.nio.ByteBuffer;
import java.util.*;
public class Golden {
  static String hex(ApiMessage m, short v){ ByteBuffer b = MessageUtil.toByteBufferAccessor(m, v).buffer(); StringBuilder s=new StringBuilder(); while(b.hasRemaining()) s.append(String.format("%02x", b.get())); return s.toString(); }
  static Uuid id = new Uuid(0x0123456789abcdefL, 0x0fedcba987654321L);
  public static void main(String[] a){
    System.out.println("hbReq " + hex(new ShareGroupHeartbeatRequestData().setGroupId("g").setMemberId("m").setMemberEpoch(0).setRackId(null).setSubscribedTopicNames(List.of("t")), (short)1));
    System.out.println("hbReqNull " + hex(new ShareGroupHeartbeatRequestData().setGroupId("g").setMemberId("m").setMemberEpoch(3).setRackId(null).setSubscribedTopicNames(null), (short)1));
    ShareFetchRequestData f = new ShareFetchRequestData().setGroupId("g").setMemberId("m").setShareSessionEpoch(1).setMaxWaitMs(500).setMinBytes(1).setMaxBytes(1024).setMaxRecords(10).setBatchSize(10);
    ShareFetchRequestData.FetchTopicCollection ft = new ShareFetchRequestData.FetchTopicCollection();
    ShareFetchRequestData.FetchPartitionCollection fp = new ShareFetchRequestData.FetchPartitionCollection();
    fp.add(new ShareFetchRequestData.FetchPartition().setPartitionIndex(2).setAcknowledgementBatches(List.of(new ShareFetchRequestData.AcknowledgementBatch().setFirstOffset(5).setLastOffset(7).setAcknowledgeTypes(List.of((byte)1)), new ShareFetchRequestData.AcknowledgementBatch().setFirstOffset(9).setLastOffset(10).setAcknowledgeTypes(List.of((byte)0,(byte)2)))));
    ft.add(new ShareFetchRequestData.FetchTopic().setTopicId(id).setPartitions(fp));
    f.setTopics(ft);
    f.setForgottenTopicsData(List.of(new ShareFetchRequestData.ForgottenTopic().setTopicId(id).setPartitions(List.of(4))));
    System.out.println("fetchReq2 " + hex(f, (short)2));
    System.out.println("fetchReq1 " + hex(f, (short)1));
    ShareAcknowledgeRequestData k = new ShareAcknowledgeRequestData().setGroupId("g").setMemberId("m").setShareSessionEpoch(4).setIsRenewAck(true);
    ShareAcknowledgeRequestData.AcknowledgeTopicCollection kt = new ShareAcknowledgeRequestData.AcknowledgeTopicCollection();
    ShareAcknowledgeRequestData.AcknowledgePartitionCollection kp = new ShareAcknowledgeRequestData.AcknowledgePartitionCollection();
    kp.add(new ShareAcknowledgeRequestData.AcknowledgePartition().setPartitionIndex(0).setAcknowledgementBatches(List.of(new ShareAcknowledgeRequestData.AcknowledgementBatch().setFirstOffset(1).setLastOffset(3).setAcknowledgeTypes(List.of((byte)4)))));
    kt.add(new ShareAcknowledgeRequestData.AcknowledgeTopic().setTopicId(id).setPartitions(kp));
    k.setTopics(kt);
    System.out.println("ackReq2 " + hex(k, (short)2));
    MetadataRequestData md = new MetadataRequestData().setAllowAutoTopicCreation(false).setIncludeTopicAuthorizedOperations(false).setTopics(List.of(new MetadataRequestData.MetadataRequestTopic().setName("t").setTopicId(Uuid.ZERO_UUID)));
    System.out.println("mdReq " + hex(md, (short)12));
    IncrementalAlterConfigsRequestData iac = new IncrementalAlterConfigsRequestData().setValidateOnly(false);
    IncrementalAlterConfigsRequestData.AlterableConfigCollection cc = new IncrementalAlterConfigsRequestData.AlterableConfigCollection();
    cc.add(new IncrementalAlterConfigsRequestData.AlterableConfig().setName("share.auto.offset.reset").setConfigOperation((byte)0).setValue("earliest"));
    IncrementalAlterConfigsRequestData.AlterConfigsResourceCollection rc = new IncrementalAlterConfigsRequestData.AlterConfigsResourceCollection();
    rc.add(new IncrementalAlterConfigsRequestData.AlterConfigsResource().setResourceType((byte)32).setResourceName("g").setConfigs(cc));
    iac.setResources(rc);
    System.out.println("iacReq " + hex(iac, (short)1));
    // responses
    ShareGroupHeartbeatResponseData hb = new ShareGroupHeartbeatResponseData().setErrorCode((short)0).setMemberId("m").setMemberEpoch(2).setHeartbeatIntervalMs(5000).setAssignment(new ShareGroupHeartbeatResponseData.Assignment().setTopicPartitions(List.of(new ShareGroupHeartbeatResponseData.TopicPartitions().setTopicId(id).setPartitions(List.of(0,1,2)))));
    System.out.println("hbRes " + hex(hb, (short)1));
    System.out.println("hbResNone " + hex(new ShareGroupHeartbeatResponseData().setErrorCode((short)25).setErrorMessage("unknown member").setMemberId(null).setMemberEpoch(-1).setHeartbeatIntervalMs(0).setAssignment(null), (short)1));
    ShareFetchResponseData fr = new ShareFetchResponseData().setAcquisitionLockTimeoutMs(30000);
    ShareFetchResponseData.ShareFetchableTopicResponseCollection frt = new ShareFetchResponseData.ShareFetchableTopicResponseCollection();
    ShareFetchResponseData.PartitionData pd = new ShareFetchResponseData.PartitionData().setPartitionIndex(2).setErrorCode((short)0).setAcknowledgeErrorCode((short)0)
      .setCurrentLeader(new ShareFetchResponseData.LeaderIdAndEpoch().setLeaderId(1).setLeaderEpoch(7))
      .setRecords(org.apache.kafka.common.record.internal.MemoryRecords.readableRecords(ByteBuffer.wrap(new byte[]{1,2,3})))
      .setAcquiredRecords(List.of(new ShareFetchResponseData.AcquiredRecords().setFirstOffset(5).setLastOffset(9).setDeliveryCount((short)2)));
    frt.add(new ShareFetchResponseData.ShareFetchableTopicResponse().setTopicId(id).setPartitions(List.of(pd)));
    fr.setResponses(frt);
    ShareFetchResponseData.NodeEndpointCollection ne = new ShareFetchResponseData.NodeEndpointCollection();
    ne.add(new ShareFetchResponseData.NodeEndpoint().setNodeId(1).setHost("h").setPort(9092).setRack(null));
    fr.setNodeEndpoints(ne);
    System.out.println("fetchRes2 " + hex(fr, (short)2));
    ShareAcknowledgeResponseData ar = new ShareAcknowledgeResponseData().setErrorCode((short)0).setAcquisitionLockTimeoutMs(15000);
    ShareAcknowledgeResponseData.ShareAcknowledgeTopicResponseCollection art = new ShareAcknowledgeResponseData.ShareAcknowledgeTopicResponseCollection();
    art.add(new ShareAcknowledgeResponseData.ShareAcknowledgeTopicResponse().setTopicId(id).setPartitions(List.of(new ShareAcknowledgeResponseData.PartitionData().setPartitionIndex(0).setErrorCode((short)6).setErrorMessage("not leader").setCurrentLeader(new ShareAcknowledgeResponseData.LeaderIdAndEpoch().setLeaderId(2).setLeaderEpoch(3)))));
    ar.setResponses(art);
    System.out.println("ackRes2 " + hex(ar, (short)2));
    System.out.println("ackRes1 " + hex(ar, (short)1));
    MetadataResponseData mr = new MetadataResponseData().setClusterId("c").setControllerId(1);
    MetadataResponseData.MetadataResponseBrokerCollection mb = new MetadataResponseData.MetadataResponseBrokerCollection();
    mb.add(new MetadataResponseData.MetadataResponseBroker().setNodeId(1).setHost("h").setPort(9092));
    mr.setBrokers(mb);
    MetadataResponseData.MetadataResponseTopicCollection mt = new MetadataResponseData.MetadataResponseTopicCollection();
    mt.add(new MetadataResponseData.MetadataResponseTopic().setName("t").setTopicId(id).setPartitions(List.of(new MetadataResponseData.MetadataResponsePartition().setPartitionIndex(0).setLeaderId(1).setLeaderEpoch(4).setReplicaNodes(List.of(1)).setIsrNodes(List.of(1)))));
    mr.setTopics(mt);
    System.out.println("mdRes " + hex(mr, (short)12));
    IncrementalAlterConfigsResponseData ir = new IncrementalAlterConfigsResponseData().setResponses(List.of(new IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse().setErrorCode((short)40).setErrorMessage("bad").setResourceType((byte)32).setResourceName("g")));
    System.out.println("iacRes " + hex(ir, (short)1));
    System.out.println("fcReq " + hex(new FindCoordinatorRequestData().setKeyType((byte)2).setCoordinatorKeys(List.of("g:ASNFZ4mrze8P7cuph2VDIQ:0")), (short)6));
    System.out.println("fcRes " + hex(new FindCoordinatorResponseData().setCoordinators(List.of(new FindCoordinatorResponseData.Coordinator().setKey("g:ASNFZ4mrze8P7cuph2VDIQ:0").setNodeId(2).setHost("h").setPort(9092).setErrorCode((short)0).setErrorMessage(null))), (short)6));
    System.out.println("dsgoReq " + hex(new DescribeShareGroupOffsetsRequestData().setGroups(List.of(new DescribeShareGroupOffsetsRequestData.DescribeShareGroupOffsetsRequestGroup().setGroupId("g").setTopics(null))), (short)1));
    System.out.println("dsgoRes " + hex(new DescribeShareGroupOffsetsResponseData().setGroups(List.of(new DescribeShareGroupOffsetsResponseData.DescribeShareGroupOffsetsResponseGroup().setGroupId("g").setErrorCode((short)0).setErrorMessage(null)
      .setTopics(List.of(
        new DescribeShareGroupOffsetsResponseData.DescribeShareGroupOffsetsResponseTopic().setTopicName("t").setTopicId(id).setPartitions(List.of(
          new DescribeShareGroupOffsetsResponseData.DescribeShareGroupOffsetsResponsePartition().setPartitionIndex(0).setStartOffset(40).setLeaderEpoch(3).setLag(7).setErrorCode((short)0).setErrorMessage(null),
          new DescribeShareGroupOffsetsResponseData.DescribeShareGroupOffsetsResponsePartition().setPartitionIndex(1).setStartOffset(-1).setLeaderEpoch(3).setLag(-1).setErrorCode((short)0).setErrorMessage(null))),
        new DescribeShareGroupOffsetsResponseData.DescribeShareGroupOffsetsResponseTopic().setTopicName("other").setTopicId(id).setPartitions(List.of()))))), (short)1));
    System.out.println("sgdReq " + hex(new ShareGroupDescribeRequestData().setGroupIds(List.of("g")).setIncludeAuthorizedOperations(false), (short)1));
    System.out.println("sgdRes " + hex(new ShareGroupDescribeResponseData().setGroups(List.of(new ShareGroupDescribeResponseData.DescribedGroup().setErrorCode((short)0).setErrorMessage(null).setGroupId("g").setGroupState("Stable").setGroupEpoch(3).setAssignmentEpoch(3).setAssignorName("simple")
      .setMembers(List.of(new ShareGroupDescribeResponseData.Member().setMemberId("m1").setRackId(null).setMemberEpoch(3).setClientId("c").setClientHost("/127.0.0.1").setSubscribedTopicNames(List.of("t"))
        .setAssignment(new ShareGroupDescribeResponseData.Assignment().setTopicPartitions(List.of(new ShareGroupDescribeResponseData.TopicPartitions().setTopicId(id).setTopicName("t").setPartitions(List.of(0, 2)))))))
      .setAuthorizedOperations(-2147483648))), (short)1));
  }
}
