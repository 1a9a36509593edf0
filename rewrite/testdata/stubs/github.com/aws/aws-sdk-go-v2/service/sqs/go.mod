module github.com/aws/aws-sdk-go-v2/service/sqs

go 1.22
