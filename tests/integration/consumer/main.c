/* Links the installed libpdnn and runs one op: a ReLU over four values. */
#include <stdio.h>
#include <pdnn.h>

int main(void)
{
    pdnnHandle_t h;
    pdnnTensorDescriptor_t d;
    pdnnActivationDescriptor_t a;
    float x[4] = {-1, 2, -3, 4}, one = 1, zero = 0;
    if (pdnnCreate(&h) || pdnnCreateTensorDescriptor(&d) ||
        pdnnSetTensor4dDescriptor(d, PDNN_TENSOR_NCHW, PDNN_DATA_FLOAT, 1, 4, 1, 1) ||
        pdnnCreateActivationDescriptor(&a) ||
        pdnnSetActivationDescriptor(a, PDNN_ACTIVATION_RELU, PDNN_NOT_PROPAGATE_NAN, 0) ||
        pdnnActivationForward(h, a, &one, d, x, &zero, d, x))
        return 1;
    printf("pdnn %zu: relu -> %g %g %g %g\n", pdnnGetVersion(), x[0], x[1], x[2], x[3]);
    pdnnDestroyActivationDescriptor(a);
    pdnnDestroyTensorDescriptor(d);
    pdnnDestroy(h);
    return !(x[0] == 0 && x[1] == 2 && x[2] == 0 && x[3] == 4);
}
